/**
 * Labels in the reader's language (shared/api/labels.ts; issue 37, item 2):
 * every coded value of an answer the emulator gave in German reads, relabelled
 * to English, as the emulator's English answer, for profiles with people and
 * announcements, changes and the older listing's company; prose stays; a code
 * the tables do not know reads as its code.
 */
import { describe, expect, it } from "vitest";
import { createEmulator } from "../../emulator/index.ts";
import { relabel } from "../../shared/api/index.ts";

const emu = createEmulator({ companies: 200, seed: 9 });
const key = emu.accounts.create(1_000_000);
const ask = (path: string, lang: "de" | "en") =>
  JSON.parse(
    emu.handle({ method: "GET", url: path, headers: { Authorization: `Bearer ${key}`, "Accept-Language": lang } }).body,
  ) as unknown;

/** The answer without its prose (what the API writes in the buyer's language and relabel leaves). */
const withoutProse = (v: unknown): unknown =>
  JSON.parse(
    JSON.stringify(v, (k, x: unknown) =>
      ["summary", "text", "explanation", "snippets", "profile"].includes(k) ? undefined : x,
    ),
  );

describe("relabel", () => {
  it("a German answer relabelled to English is the English answer, labels and codes alike, and the reverse", () => {
    for (const id of emu.companies.ids().slice(0, 30))
      for (const path of [
        `/v2/companies/${id}?include=people,announcements`,
        `/v2/companies/${id}/changes?since=2000-01-01`,
        `/companies/${id}/data`,
      ]) {
        const [de, en] = [ask(path, "de"), ask(path, "en")];
        expect(withoutProse(relabel(de, "en"))).toEqual(withoutProse(en));
        expect(withoutProse(relabel(en, "de"))).toEqual(withoutProse(de));
      }
  });

  it("a code the tables do not know reads as its code, never in the other language", () => {
    expect(
      relabel({ legalForm: { code: "XYZ", name: "Irgendwas" }, industry: { code: "Z99.99", title: "Etwas" } }, "en"),
    ).toEqual({
      legalForm: { code: "XYZ", name: null },
      industry: { code: "Z99.99", title: null },
    });
  });
});
