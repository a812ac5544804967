/**
 * Issue 28, item 5: terminal escapes in API text (clear screen, colours,
 * window title, OSC/CSI, C0/C1 controls, bidi overrides) never reach the
 * terminal; the CLI's own tabs and line breaks stay.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { printable } from "../../node/terminal.ts";
import { runCli, startCliWorld, type CliWorld } from "../helpers/cli.ts";
import { nth } from "../helpers/indexed.ts";

const HOSTILE =
  "\x1b]0;pwned\x07\x1b[2J\x1b[H\x1b[31;1mEvil\x1b[0m \x9b2J\x9d0;t\x9c\x1bP1$r\x1b\\\u202egnp.exe\u202c\u2066x\u2069\x00\x08\r\x7f GmbH";

describe("printable", () => {
  it("drops escape sequences, controls and bidi overrides, keeps text, tabs and line breaks", () => {
    expect(printable(HOSTILE)).toBe("Evil gnp.exex GmbH");
    expect(printable("a\tb\nc äöü € 中")).toBe("a\tb\nc äöü € 中");
    expect(printable(HOSTILE)).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/);
  });
  it("is linear on a long hostile text", () => {
    const t = performance.now();
    printable("\x1b[".repeat(100_000) + "\x1b]".repeat(100_000) + "\x1bP" + "x".repeat(200_000));
    expect(performance.now() - t).toBeLessThan(2000);
  });
});

describe("company-data search with hostile names from the service", () => {
  let world: CliWorld;
  beforeAll(async () => {
    world = await startCliWorld({ companies: 500, seed: 5, dirPrefix: "cd-term-" });
  });
  afterAll(() => world?.server.close());

  it("prints the results without a single control character", async () => {
    const c = nth(world.emu.world.companies, 0);
    const name = c.name;
    (c as { name: string }).name = HOSTILE;
    const r = await runCli(world, ["search", name, "--limit", "3", "--lang", "en"], { key: world.emu.createKey(100) });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/Evil gnp\.exex +GmbH/);
    expect(r.stdout + r.stderr).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/);
  });
});
