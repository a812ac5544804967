/**
 * One line of text for any thrown value, for every place the server prints
 * or stores an error. `${e.name}: ${e.message}` is not enough: PGlite's file
 * system throws emscripten's ErrnoError, an object that is no Error and has
 * no message, only a number (printed as `ErrnoError: [object Object]` on a
 * full disk); other libraries throw plain objects. Never a stack.
 */

/** Emscripten's errno numbers (PGlite's FS, from its ERRNO_CODES table) for the failures a server meets. */
const EMSCRIPTEN_ERRNO: Record<number, [string, string]> = {
  2: ["EACCES", "permission denied"],
  8: ["EBADF", "bad file descriptor"],
  10: ["EBUSY", "resource busy"],
  19: ["EDQUOT", "disk quota exceeded"],
  20: ["EEXIST", "file exists"],
  22: ["EFBIG", "file too large"],
  28: ["EINVAL", "invalid argument"],
  29: ["EIO", "input/output error"],
  31: ["EISDIR", "is a directory"],
  33: ["EMFILE", "too many open files"],
  44: ["ENOENT", "no such file or directory"],
  48: ["ENOMEM", "out of memory"],
  51: ["ENOSPC", "no space left on device"],
  54: ["ENOTDIR", "not a directory"],
  63: ["EPERM", "operation not permitted"],
  69: ["EROFS", "read-only file system"],
};

/** The errno code behind `e` (a Node error's `code`, or an emscripten ErrnoError's number), if any. */
export function errnoCode(e: unknown): string | undefined {
  const x = e as { code?: unknown; errno?: unknown; name?: unknown } | null;
  if (!x || typeof x !== "object") return undefined;
  if (typeof x.code === "string" && /^E[A-Z]+$/.test(x.code)) return x.code;
  if (x.name === "ErrnoError" && typeof x.errno === "number") return EMSCRIPTEN_ERRNO[x.errno]?.[0];
  return undefined;
}

const firstLine = (s: string) => s.split("\n")[0]!.slice(0, 500);

export function errorText(e: unknown): string {
  if (e === null || e === undefined) return `Error: ${String(e)}`;
  if (typeof e !== "object") return `Error: ${firstLine(String(e))}`;
  const x = e as { name?: unknown; message?: unknown; errno?: unknown; code?: unknown; cause?: unknown };
  const name = typeof x.name === "string" && x.name ? x.name : "Error";
  if (name === "ErrnoError" && typeof x.errno === "number") {
    const known = EMSCRIPTEN_ERRNO[x.errno];
    return known ? `${name}: ${known[0]} (${known[1]})` : `${name}: errno ${x.errno}`;
  }
  const message = typeof x.message === "string" ? x.message : "";
  if (message && message !== "[object Object]") return `${name}: ${firstLine(message)}`;
  if (x.cause !== undefined && x.cause !== e) return `${name}: ${errorText(x.cause)}`;
  if (typeof x.code === "string") return `${name}: ${x.code}`;
  let shown: string;
  try {
    shown = JSON.stringify(e) ?? "";
  } catch {
    shown = "";
  }
  return `${name}: ${firstLine(shown && shown !== "{}" ? shown : Object.prototype.toString.call(e))}`;
}

/** The message alone where one is stored or logged beside its context (an Error's message; any other value as errorText). */
export function errorMessage(e: unknown): string {
  const m = (e as { message?: unknown } | null)?.message;
  return typeof m === "string" && m && m !== "[object Object]" ? m : errorText(e);
}
