/**
 * Answer, then close without reading the rest of the request (issue 36,
 * item 4: a body nobody admitted is never read). node ends a
 * `Connection: close` answer with `socket.destroySoon()` and, for a body
 * left unread, resumes the socket to drain it; destroying a socket while
 * the refused body still arrives resets the connection (RST), and a client
 * still sending then loses the answer (RFC 9112 §9.6, "tear-down"). So this
 * socket instead: sends its FIN after the answer, reads nothing more (what
 * is already in its buffers stays unread) and is destroyed after a grace
 * period in which the client reads the answer and closes.
 */
import type { ServerResponse } from "node:http";
import type { Socket } from "node:net";

/** How long a refused connection stays half-closed for its client to read the answer. */
export const LINGER_MS = 2_000;

/** Call before writing a `Connection: close` answer to a request whose body is not to be read. */
export function closeUnread(res: ServerResponse): void {
  const socket: (Socket & { destroySoon?: () => void }) | null = res.socket;
  if (!socket) return;
  socket.pause();
  // node's drain of the unread body resumes the socket through socket.resume(): not this one any more.
  socket.resume = () => socket;
  socket.destroySoon = () => {
    socket.end();
    setTimeout(() => socket.destroy(), LINGER_MS).unref();
  };
}
