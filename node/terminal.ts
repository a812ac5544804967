/**
 * Text from the API made safe to print. A company name, an announcement or an
 * error message the service sends could carry terminal control sequences:
 * clear the screen (ESC [ 2 J), colours, set the window title (ESC ] 0 ; … BEL),
 * or Unicode bidi overrides that make text read backwards. Everything the CLI
 * prints (stdout and stderr, terminal or not: a log file is read on a
 * terminal later) goes through `printable`, which drops:
 *
 * - whole escape sequences: CSI (ESC [ … final byte, or the C1 byte 0x9B),
 *   OSC, DCS, SOS, PM and APC strings (ESC ] P X ^ _ … up to BEL or ST, or their
 *   C1 bytes 0x9D 0x90 0x98 0x9E 0x9F), and any other ESC + one byte (ECMA-48
 *   sections 5.3, 5.4 and 8.3);
 * - every other C0 control but TAB and LF (the CLI's own column and line
 *   breaks), DEL and the C1 controls U+0080–U+009F;
 * - the bidi embeddings, overrides and isolates U+202A–U+202E, U+2066–U+2069.
 *
 * Each pattern is linear (no nested repetition). The CLI's own progress bar
 * writes its carriage returns past this, directly to the terminal.
 */
const STRINGS = /(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?/g;
const CSI = /(?:\x1b\[|\x9b)[\x30-\x3f]*[\x20-\x2f]*[\x40-\x7e]?/g;
const OTHER_ESC = /\x1b[\x20-\x7e]?/g;
const CONTROLS = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g;

export function printable(text: string): string {
  return text.replace(STRINGS, "").replace(CSI, "").replace(OTHER_ESC, "").replace(CONTROLS, "");
}
