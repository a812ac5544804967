/**
 * Loopback receivers for the schedules' alerts, offline: a webhook receiver
 * (node:http, port 0) that records each POST and answers 200 on /ok and 500
 * on /fail, and an SMTP sink (node:net, port 0) that speaks the few
 * commands of RFC 5321 a client needs to hand over one message (no
 * STARTTLS, no AUTH offered) and records what it was given.
 */
import * as http from "node:http";
import * as net from "node:net";
import type { AddressInfo } from "node:net";

export interface WebhookSink {
  url: string;
  posts: { path: string; body: string }[];
  close(): Promise<void>;
}

export async function webhookSink(): Promise<WebhookSink> {
  const posts: { path: string; body: string }[] = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      posts.push({ path: req.url ?? "", body });
      res.writeHead(req.url?.startsWith("/fail") ? 500 : 200).end("ok");
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    posts,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

export interface SmtpSink {
  url: string;
  messages: { from: string; to: string[]; data: string }[];
  close(): Promise<void>;
}

export async function smtpSink(): Promise<SmtpSink> {
  const messages: SmtpSink["messages"] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    let buffer = "";
    let inData = false;
    let current = { from: "", to: [] as string[], data: "" };
    const reply = (line: string) => socket.write(line + "\r\n");
    reply("220 sink.test ESMTP");
    socket.on("data", (chunk: Buffer) => {
      buffer += chunk.toString("utf8");
      for (;;) {
        if (inData) {
          const end = buffer.indexOf("\r\n.\r\n");
          if (end < 0) return;
          current.data = buffer.slice(0, end);
          buffer = buffer.slice(end + 5);
          inData = false;
          messages.push(current);
          current = { from: "", to: [], data: "" };
          reply("250 queued");
          continue;
        }
        const nl = buffer.indexOf("\r\n");
        if (nl < 0) return;
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === "EHLO" || verb === "HELO") reply("250 sink.test");
        else if (verb === "MAIL") {
          current.from = /<([^>]*)>/.exec(line)?.[1] ?? "";
          reply("250 ok");
        } else if (verb === "RCPT") {
          current.to.push(/<([^>]*)>/.exec(line)?.[1] ?? "");
          reply("250 ok");
        } else if (verb === "DATA") {
          inData = true;
          reply("354 end with <CRLF>.<CRLF>");
        } else if (verb === "QUIT") {
          reply("221 bye");
          socket.end();
        } else if (verb === "RSET" || verb === "NOOP") reply("250 ok");
        else reply("502 not implemented");
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  return {
    url: `smtp://127.0.0.1:${(server.address() as AddressInfo).port}`,
    messages,
    close: () =>
      new Promise((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}
