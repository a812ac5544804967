/**
 * Which character encoding an input file is in, and decoding that never
 * guesses silently. German Excel's "CSV (Trennzeichen-getrennt)" saves in
 * Windows-1252, "CSV UTF-8" in UTF-8 with a byte-order mark, "Unicode-Text"
 * in UTF-16 LE with a mark. Detection: a byte-order mark decides (UTF-8,
 * UTF-16 LE/BE); without one, a file that is valid UTF-8 is UTF-8, any other
 * is Windows-1252 (every byte sequence is valid there, so the cells come
 * out as the user saw them in Excel). A file read with an encoding it is not
 * in (`--encoding utf-8` on a Windows-1252 file, a torn UTF-16 file) is an
 * error, never a U+FFFD in the output: the decoders are strict.
 */
import { closeSync, openSync, readSync } from "node:fs";

export type Encoding = "utf-8" | "utf-16le" | "utf-16be" | "windows-1252";

/** The names `--encoding` accepts (as the WHATWG Encoding Standard labels them, plus Excel's usual names). */
const LABELS: Record<string, Encoding> = {
  "utf-8": "utf-8",
  utf8: "utf-8",
  "utf-16": "utf-16le",
  "utf-16le": "utf-16le",
  utf16: "utf-16le",
  "utf-16be": "utf-16be",
  "windows-1252": "windows-1252",
  cp1252: "windows-1252",
  latin1: "windows-1252",
  "iso-8859-1": "windows-1252",
  ansi: "windows-1252",
};

/** The encoding a `--encoding` value names, or null. */
export function parseEncoding(v: string): Encoding | null {
  return LABELS[v.trim().toLowerCase()] ?? null;
}

/** A file that is not text in the encoding it is read in. */
export class EncodingError extends Error {
  constructor(readonly encoding: Encoding) {
    super(`not valid ${encoding}`);
  }
}

/** The encoding a byte-order mark at the start of `head` names, or null. */
export function encodingFromBom(head: Uint8Array): Encoding | null {
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return "utf-8";
  if (head[0] === 0xff && head[1] === 0xfe) return "utf-16le";
  if (head[0] === 0xfe && head[1] === 0xff) return "utf-16be";
  return null;
}

/**
 * The file's encoding: its byte-order mark, else UTF-8 when the whole file is
 * valid UTF-8, else Windows-1252. Reads the file once (in pieces, so memory
 * stays bounded); stops at the first byte that is not UTF-8.
 */
export function detectEncoding(path: string): Encoding {
  const fd = openSync(path, "r");
  try {
    const buf = Buffer.allocUnsafe(256 * 1024);
    let n = readSync(fd, buf, 0, buf.length, null);
    const bom = encodingFromBom(buf.subarray(0, n));
    if (bom) return bom;
    const decoder = new TextDecoder("utf-8", { fatal: true });
    try {
      while (n > 0) {
        decoder.decode(buf.subarray(0, n), { stream: true });
        n = readSync(fd, buf, 0, buf.length, null);
      }
      decoder.decode();
      return "utf-8";
    } catch {
      return "windows-1252";
    }
  } finally {
    closeSync(fd);
  }
}

/**
 * A strict streaming decoder: text of each piece, EncodingError on bytes that
 * are not valid in `encoding` (and on a torn character at the end). A
 * byte-order mark at the start is dropped.
 */
export function strictDecoder(encoding: Encoding): { push(bytes: Uint8Array): string; end(): string } {
  const decoder = new TextDecoder(encoding, { fatal: true });
  const run = (f: () => string) => {
    try {
      return f();
    } catch {
      throw new EncodingError(encoding);
    }
  };
  return {
    push: (bytes) => run(() => decoder.decode(bytes, { stream: true })),
    end: () => run(() => decoder.decode()),
  };
}
