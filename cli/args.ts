/**
 * The command line's arguments, read by node:util parseArgs in strict mode
 * against one table of options (OPTIONS in ./main.ts). What strict mode
 * refuses is said in the user's language: parseArgs's own errors are English
 * and name the option only inside their text, so a refused command line is
 * read again without strictness, and its tokens name the culprit (exit 2).
 */
import { parseArgs, type ParseArgsConfig } from "node:util";
import type { Language } from "../shared/i18n/index.ts";
import { ExitError } from "./io.ts";
import { EXIT, msg } from "./i18n.ts";

/** The options table: `{ in: { type: "string" }, yes: { type: "boolean", short: "y" }, … }`. */
export type CliOptions = NonNullable<ParseArgsConfig["options"]>;

type Strict<O extends CliOptions> = { args: string[]; options: O; allowPositionals: true; strict: true };
/** Values by option name: a string option's text, `true` for a boolean option given, absent otherwise. */
export type CliValues<O extends CliOptions> = ReturnType<typeof parseArgs<Strict<O>>>["values"];

export function parseCommandLine<const O extends CliOptions>(
  argv: string[],
  options: O,
  lang: Language,
): { positional: string[]; flags: CliValues<O> } {
  try {
    const { values, positionals } = parseArgs({ args: argv, options, allowPositionals: true, strict: true });
    return { positional: positionals, flags: values };
  } catch (e) {
    throw new ExitError(EXIT.USAGE, whatIsWrong(argv, options, lang) ?? (e instanceof Error ? e.message : String(e)));
  }
}

/** The first option strict mode refuses, in the user's words (null: nothing found, the original error stands). */
function whatIsWrong(argv: string[], options: CliOptions, lang: Language): string | null {
  const { tokens } = parseArgs({ args: argv, options, allowPositionals: true, strict: false, tokens: true });
  for (const t of tokens) {
    if (t.kind !== "option") continue;
    const def = Object.prototype.hasOwnProperty.call(options, t.name) ? options[t.name] : undefined;
    // "--colour=red" is named whole, as typed; a short flag by itself ("-x" of "-xy").
    if (!def) return msg.unknownOption[lang](t.rawName.startsWith("--") ? (argv[t.index] ?? t.rawName) : t.rawName);
    if (def.type === "string") {
      // At the end of the line, or followed by another option ("--in --out x.csv"): the value is missing.
      if (t.value === undefined || (!t.inlineValue && t.value.length > 1 && t.value.startsWith("-")))
        return msg.missingOption[lang](t.rawName);
    } else if (t.value !== undefined) return msg.badValue[lang](t.rawName, t.value);
  }
  return null;
}
