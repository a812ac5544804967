/**
 * E-mail alerts from the team server: the digest through an SMTP relay the
 * administrator names (COMPANY_DATA_SMTP_URL, e.g.
 * smtps://user:password@mail.example.com:465; COMPANY_DATA_SMTP_FROM the
 * sender). Without it the server sends no e-mail and a schedule's recipients
 * are reported as not reachable. nodemailer's SMTP transport
 * (https://nodemailer.com/smtp/): connection, greeting and socket timeouts
 * bound a relay that does not answer, so a run never hangs on it.
 */
import nodemailer from "nodemailer";

export interface ScheduleMailer {
  send(to: string[], subject: string, text: string): Promise<void>;
}

export const DEFAULT_MAIL_TIMEOUT_MS = 15_000;

/** The mailer of COMPANY_DATA_SMTP_URL, or undefined when the server has none. */
export function smtpMailer(env: NodeJS.ProcessEnv, timeoutMs = DEFAULT_MAIL_TIMEOUT_MS): ScheduleMailer | undefined {
  const url = env.COMPANY_DATA_SMTP_URL?.trim();
  if (!url) return undefined;
  const from = env.COMPANY_DATA_SMTP_FROM?.trim() || "company-data@localhost";
  // `url` beside the options: nodemailer's SMTP transport reads host, port, TLS and login from it.
  const transport = nodemailer.createTransport(
    { url, connectionTimeout: timeoutMs, greetingTimeout: timeoutMs, socketTimeout: timeoutMs, logger: false },
    { from },
  );
  return {
    async send(to, subject, text) {
      await transport.sendMail({ to, subject, text });
    },
  };
}
