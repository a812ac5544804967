/**
 * The command line's arguments (cli/args.ts: node:util parseArgs, strict):
 * values, short flags, and every refusal in the user's language with exit 2,
 * naming the option as it was typed. Then the real CLI, spawned, with its
 * one options table.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../emulator/server.ts";
import { parseCommandLine } from "../../cli/args.ts";
import { EXIT } from "../../cli/i18n.ts";
import { runCli, startCliWorld } from "../helpers/cli.ts";

const OPTIONS = {
  in: { type: "string" },
  out: { type: "string" },
  yes: { type: "boolean", short: "y" },
  help: { type: "boolean", short: "h" },
} as const;

/** The message and exit code a command line is refused with. */
function refusal(argv: string[], lang: "de" | "en"): { code: number; message: string } {
  try {
    parseCommandLine(argv, OPTIONS, lang);
  } catch (e) {
    return { code: (e as { code: number }).code, message: (e as Error).message };
  }
  throw new Error(`accepted: ${argv.join(" ")}`);
}

describe("parseCommandLine", () => {
  it("reads values (separate or after =), positionals and the short flags -y and -h", () => {
    const { positional, flags } = parseCommandLine(
      ["enrich", "--in", "a.csv", "--out=b.csv", "-y", "extra"],
      OPTIONS,
      "en",
    );
    expect(positional).toEqual(["enrich", "extra"]);
    expect(flags).toEqual({ in: "a.csv", out: "b.csv", yes: true });
    expect(parseCommandLine(["-h"], OPTIONS, "de").flags).toEqual({ help: true });
    // A lone dash is a value (stdin, a file named "-"), not an option.
    expect(parseCommandLine(["--in", "-"], OPTIONS, "en").flags.in).toBe("-");
  });

  it("an unknown option, as typed", () => {
    expect(refusal(["enrich", "--colour=red"], "en")).toEqual({
      code: EXIT.USAGE,
      message: "Unknown option --colour=red. See company-data --help.",
    });
    expect(refusal(["enrich", "--colour"], "de")).toEqual({
      code: EXIT.USAGE,
      message: "Unbekannte Option --colour. Siehe company-data --help.",
    });
    expect(refusal(["-x"], "en").message).toBe("Unknown option -x. See company-data --help.");
  });

  it("a missing value: at the end of the line, or where the next word is another option", () => {
    expect(refusal(["enrich", "--in", "a.csv", "--out"], "en")).toEqual({
      code: EXIT.USAGE,
      message: "Missing --out. See company-data --help.",
    });
    expect(refusal(["enrich", "--out"], "de").message).toBe("--out fehlt. Siehe company-data --help.");
    // Before, "--out" was taken as the input file's name.
    expect(refusal(["enrich", "--in", "--out", "b.csv"], "en").message).toBe("Missing --in. See company-data --help.");
  });

  it("a value given to a flag that takes none", () => {
    expect(refusal(["--yes=no"], "en")).toEqual({ code: EXIT.USAGE, message: "Invalid value for --yes: no" });
    expect(refusal(["--yes=no"], "de").message).toBe("Ungültiger Wert für --yes: no");
  });
});

describe("the CLI's options", () => {
  let server: RunningServer;
  let dir: string;
  beforeAll(async () => {
    ({ server, dir } = await startCliWorld({ companies: 50, seed: 3, dirPrefix: "cd-cli-args-" }));
  });
  afterAll(() => server?.close());

  it("-h prints the help; an unknown option or a missing value exits 2 in the user's language, before anything is read", async () => {
    const help = await runCli({ server, dir }, ["-h", "--lang", "en"]);
    expect(help.code).toBe(EXIT.OK);
    expect(help.stdout).toContain("company-data enrich --in FILE.csv");
    const unknown = await runCli({ server, dir }, ["enrich", "--in", "x.csv", "--bogus", "--lang", "de"], { key: "k" });
    expect(unknown.code).toBe(EXIT.USAGE);
    expect(unknown.stderr.trim()).toBe("Unbekannte Option --bogus. Siehe company-data --help.");
    const missing = await runCli({ server, dir }, ["search", "GmbH", "--limit", "--lang=en"], { key: "k" });
    expect(missing.code).toBe(EXIT.USAGE);
    expect(missing.stderr.trim()).toBe("Missing --limit. See company-data --help.");
  });
});
