/**
 * RFC 4180 CSV, streaming: quoted fields with embedded delimiters, quotes
 * ("") and line breaks; CRLF or LF; a byte-order mark is dropped. Files are
 * decoded strictly in their encoding (./encoding.ts). The delimiter is
 * detected from the header line (German Excel writes `;`). Written text from
 * the API that a spreadsheet would run as a formula is neutralised; the
 * user's own cells are written as they were read.
 */
import { createReadStream } from "node:fs";
import { strictDecoder, type Encoding } from "./encoding.ts";
import type { Bilingual } from "../shared/i18n/index.ts";

import { formatCsvNumber, type Delimiter } from "../shared/sheet/index.ts";

// The writer is the shared one (shared/sheet/csv-write.ts); re-exported so the CLI has one CSV module.
export { formatCell, formatCsvNumber, formatRow, type Delimiter } from "../shared/sheet/index.ts";

/** The delimiter that occurs most often outside quotes in the first line (comma on a tie or none). */
export function detectDelimiter(firstLine: string): Delimiter {
  const counts: Record<Delimiter, number> = { ",": 0, ";": 0, "\t": 0 };
  let quoted = false;
  for (const ch of firstLine) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && (ch === "," || ch === ";" || ch === "\t")) counts[ch]++;
  }
  let best: Delimiter = ",";
  for (const d of [";", "\t"] as const) if (counts[d] > counts[best]) best = d;
  return best;
}

/**
 * The longest field and the longest row (record) read, in characters. A
 * spreadsheet cell holds at most 32,767 characters in Excel
 * (https://support.microsoft.com/en-us/office/excel-specifications-and-limits-1672b34d-7043-467e-8e27-269d656771c3)
 * and 50,000 in Google Sheets, so a field of more is no list a user made by
 * hand; a row may have many fields. Past either, reading stops at once with
 * the line named: memory stays bounded (the parser never holds more than
 * one row of at most MAX_ROW_CHARS plus one piece of the file) and so does
 * time (an 8 MB header line fails after its first megabyte).
 */
export const MAX_FIELD_CHARS = 100_000;
export const MAX_ROW_CHARS = 1_000_000;

/** What is wrong with a CSV, in both languages (the message is the English one). */
export const CSV_PROBLEM = {
  afterQuote: { de: "Text nach einem schließenden Anführungszeichen", en: "text after a closing quote" },
  unclosed: { de: "ein Feld in Anführungszeichen wird nicht geschlossen", en: "a quoted field is not closed" },
  fieldTooLong: {
    de: "ein Feld ist länger als 100.000 Zeichen (eine Tabellenzelle fasst höchstens 32.767 in Excel, 50.000 in Google Sheets; eine nicht geschlossene Anführung?)",
    en: "a field is longer than 100,000 characters (a spreadsheet cell holds at most 32,767 in Excel, 50,000 in Google Sheets; an unclosed quote?)",
  },
  rowTooLong: {
    de: "eine Zeile ist länger als 1.000.000 Zeichen (ist das eine CSV-Datei mit Zeilenumbrüchen?)",
    en: "a row is longer than 1,000,000 characters (is this a CSV file with line breaks?)",
  },
} satisfies Record<string, Bilingual>;

export class CsvError extends Error {
  constructor(
    readonly line: number,
    readonly text: Bilingual,
  ) {
    super(text.en);
  }
}

type State = "start" | "plain" | "quoted" | "quote";

/**
 * Incremental parser: feed text, take complete records. Strict where data
 * would be lost (an unclosed quote, text after a closing quote), lenient
 * where Excel is (a quote inside an unquoted field is kept as text).
 */
export class CsvParser {
  private field = "";
  private record: string[] = [];
  private state: State = "start";
  private started = false;
  private pendingCR = false;
  private headBuffer = "";
  /** How far the first line was scanned for its end, and whether that point is inside quotes (linear: never rescanned). */
  private headScanned = 0;
  private headQuoted = false;
  /** Characters of the current record so far (bounded by MAX_ROW_CHARS). */
  private rowChars = 0;
  /** Line number (1-based) the parser is on, and where the current record began. */
  line = 1;
  private recordLine = 1;
  delimiter: Delimiter | null;

  constructor(delimiter?: Delimiter) {
    this.delimiter = delimiter ?? null;
  }

  /** Parse a chunk; returns the records completed in it. */
  push(text: string): string[][] {
    if (!this.started) {
      if (text.length === 0) return [];
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      this.started = true;
    }
    if (this.delimiter === null) {
      // Wait for the whole first line before deciding (at most a row's length).
      this.headBuffer += text;
      const nl = this.firstLineEnd();
      if (nl < 0) {
        if (this.headBuffer.length > MAX_ROW_CHARS) throw new CsvError(1, CSV_PROBLEM.rowTooLong);
        return [];
      }
      this.delimiter = detectDelimiter(this.headBuffer.slice(0, nl));
      text = this.headBuffer;
      this.headBuffer = "";
    }
    const out: string[][] = [];
    const d = this.delimiter;
    for (let i = 0; i < text.length; i++) {
      const ch = text[i];
      if (this.pendingCR) {
        this.pendingCR = false;
        if (ch === "\n") continue;
      }
      // A run of ordinary characters is taken as one slice (see takeRun).
      const end = this.takeRun(text, i, ch);
      if (end > i) {
        i = end - 1;
        continue;
      }
      if (++this.rowChars > MAX_ROW_CHARS) throw new CsvError(this.recordLine, CSV_PROBLEM.rowTooLong);
      if (this.field.length > MAX_FIELD_CHARS) throw new CsvError(this.recordLine, CSV_PROBLEM.fieldTooLong);
      switch (this.state) {
        case "quoted":
          if (ch === '"') this.state = "quote";
          else {
            if (ch === "\n") this.line++;
            this.field += ch;
          }
          continue;
        case "quote":
          if (ch === '"') {
            this.field += '"';
            this.state = "quoted";
            continue;
          }
          if (ch !== d && ch !== "\n" && ch !== "\r") throw new CsvError(this.line, CSV_PROBLEM.afterQuote);
          break;
        case "start":
          if (ch === '"') {
            this.state = "quoted";
            continue;
          }
          break;
      }
      if (ch === d) this.endField();
      else if (ch === "\n" || ch === "\r") {
        if (ch === "\r") this.pendingCR = true;
        this.endField();
        out.push(this.record);
        this.record = [];
        this.rowChars = 0;
        this.line++;
        this.recordLine = this.line;
      } else {
        this.field += ch;
        this.state = "plain";
      }
    }
    return out;
  }

  /**
   * Take the run of ordinary characters starting at `i` as one slice: what push's loop would do character by
   * character (the same length checks, the same line count), without a string per character (issue 43, item 2).
   * Returns where the run ends, or `i` when there is none or it comes near a limit (then the loop takes it
   * character by character and says which limit, on which line).
   */
  private takeRun(text: string, i: number, ch: string | undefined): number {
    const end = this.runEnd(text, i, ch);
    const n = end - i;
    if (n <= 0 || this.rowChars + n > MAX_ROW_CHARS || this.field.length + n > MAX_FIELD_CHARS + 1) return i;
    const run = text.slice(i, end);
    if (this.state === "quoted") this.line += countLineFeeds(run);
    else this.state = "plain";
    this.rowChars += n;
    this.field += run;
    return end;
  }

  /**
   * Where the run of ordinary characters starting at `i` (whose character is `ch`) ends: in a quoted field the
   * next quote; in an unquoted one the next delimiter or line break (a quote there is text). `i` itself when
   * `ch` is no ordinary character in the current state, or after a quote (that state takes one character).
   */
  private runEnd(text: string, i: number, ch: string | undefined): number {
    const st = this.state;
    if (st === "quote" || (st === "start" && ch === '"')) return i;
    let j = i;
    if (st === "quoted") {
      j = text.indexOf('"', i);
      return j < 0 ? text.length : j;
    }
    const d = this.delimiter;
    for (; j < text.length; j++) {
      const c = text[j];
      if (c === d || c === "\n" || c === "\r") break;
    }
    return j;
  }

  /** Where the first line of headBuffer ends (outside quotes), or -1; scans only what was not scanned yet. */
  private firstLineEnd(): number {
    const s = this.headBuffer;
    for (let i = this.headScanned; i < s.length; i++) {
      const ch = s[i];
      if (ch === '"') this.headQuoted = !this.headQuoted;
      else if (!this.headQuoted && (ch === "\n" || ch === "\r")) return i;
    }
    this.headScanned = s.length;
    return -1;
  }

  private endField() {
    if (this.field.length > MAX_FIELD_CHARS) throw new CsvError(this.recordLine, CSV_PROBLEM.fieldTooLong);
    this.record.push(this.field);
    this.field = "";
    this.state = "start";
  }

  /** End of input: the last record (without a final line break), or an error for an open quote. */
  end(): string[][] {
    const out: string[][] = [];
    if (this.delimiter === null && this.headBuffer) {
      this.delimiter = detectDelimiter(this.headBuffer);
      const text = this.headBuffer;
      this.headBuffer = "";
      out.push(...this.push(text));
    }
    if (this.state === "quoted") throw new CsvError(this.recordLine, CSV_PROBLEM.unclosed);
    if (this.state !== "start" || this.record.length > 0) {
      this.endField();
      out.push(this.record);
      this.record = [];
    }
    return out;
  }
}

/** Line feeds in `s` (the line count inside a quoted field). */
function countLineFeeds(s: string): number {
  let n = 0;
  for (let k = s.indexOf("\n"); k >= 0; k = s.indexOf("\n", k + 1)) n++;
  return n;
}

/**
 * Records of a file, read in pieces: memory stays bounded whatever the file's
 * size. Decoded strictly (UTF-8 unless told otherwise): bytes that are not
 * valid in the encoding throw EncodingError instead of becoming U+FFFD.
 */
export async function* readCsv(
  path: string,
  onDelimiter?: (d: Delimiter) => void,
  encoding: Encoding = "utf-8",
): AsyncGenerator<string[]> {
  const parser = new CsvParser();
  const decoder = strictDecoder(encoding);
  let told = false;
  for await (const chunk of createReadStream(path, { highWaterMark: 64 * 1024 })) {
    const records = parser.push(decoder.push(chunk as Buffer));
    if (!told && parser.delimiter) {
      told = true;
      onDelimiter?.(parser.delimiter);
    }
    yield* records;
  }
  const rest = [...parser.push(decoder.end()), ...parser.end()];
  if (!told && parser.delimiter) onDelimiter?.(parser.delimiter);
  yield* rest;
}

/** Parse a whole text (tests, small inputs). */
export function parseCsv(text: string, delimiter?: Delimiter): string[][] {
  const p = new CsvParser(delimiter);
  return [...p.push(text), ...p.end()];
}

/** The inverse of formatCsvNumber: a number when the text is exactly one this CLI writes, else null. */
export function parseCsvNumber(s: string, delimiter: Delimiter): number | null {
  if (s === "") return null;
  const plain = delimiter === ";" ? (s.includes(".") ? "" : s.replace(",", ".")) : s;
  if (plain === "") return null;
  const n = Number(plain);
  return Number.isFinite(n) && formatCsvNumber(n, delimiter) === s ? n : null;
}
