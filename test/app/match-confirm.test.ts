/**
 * Issue 12 item 2 through the app service (what every host's UI calls): a
 * large list is matched first and waits for the second confirmation with the
 * exact price; Continue buys within it, Cancel buys nothing more; a sidebar
 * opened later finds the question again; a small list asks once.
 */
import { describe, expect, it } from "vitest";
import { harness, emulator } from "./harness.ts";
import { uniqueNames } from "../helpers/names.ts";
import type { EnrichProgressView } from "../../shared/app/protocol.ts";
import { CONFIRM_AFTER_MATCHING } from "../../shared/app/enrich-preview.ts";

/** `n` names found once each, five of them twice, and ten that exist nowhere. */
function listOf(n: number, skip: number) {
  const names = uniqueNames(emulator(), n, skip);
  const rows = names.map((x) => [x]);
  for (let i = 0; i < 5; i++) rows.push([names[i * 3] ?? ""]);
  for (let i = 0; i < 10; i++) rows.push([`Phantasiefirma ${i} Nirgendwo GmbH`]);
  return [["Firma"], ...rows];
}

async function setup(n: number, skip: number) {
  const cells = listOf(n, skip);
  const h = harness([{ name: "Liste", cells }]);
  const key = h.emu.createKey(50_000);
  await h.call("saveSettings", { apiKey: key, baseUrl: "https://emulator.test", language: "de" });
  const config = {
    sheet: "Liste",
    headerRow: 1,
    col: 1,
    rows: cells.length - 1,
    cols: 1,
    mapping: { name: 0, city: null, zip: null, register: null, id: null, website: null, vatId: null },
    fields: ["id", "name", "address"],
    mode: "batch",
    rerun: { kind: "newOrFailed" },
  };
  const balance = () => h.emu.balance(key);
  const steps = async (p: EnrichProgressView) => {
    for (let i = 0; i < 50 && !p.finished && !p.afterMatching; i++)
      p = await h.call<EnrichProgressView>("enrichStep", { jobId: p.jobId });
    return p;
  };
  return { h, key, config, balance, steps, rows: cells.length - 1 };
}

describe("enrichStart on a large list: match, show the exact price, then buy within it", () => {
  it("stops after matching with the exact price; a step while waiting sends nothing; Continue spends exactly it", async () => {
    const t = await setup(220, 0);
    expect(t.rows).toBeGreaterThanOrEqual(CONFIRM_AFTER_MATCHING.rows);
    const preview = await t.h.call("enrichPreview", t.config);
    const before = t.balance();
    let p = await t.steps(await t.h.call<EnrichProgressView>("enrichStart", t.config));
    const a = p.afterMatching!;
    expect(a).toBeTruthy();
    expect(p.finished).toBe(false);
    // Matching only: the batch resolves (235 rows, 230 distinct names), no profile.
    const matching = before - t.balance();
    expect(matching).toBe(23);
    expect(p.creditsSpent).toBe(matching);
    expect(a).toMatchObject({ rows: t.rows, found: 225, companies: 220, credits: 220 });
    // The first price counted every distinct name as a company of its own.
    expect(a.ceiling).toBe(230);
    expect(preview.estimate.credits).toBe(23 + 230);
    expect(p.unbought).toBe(225);
    // A step (a sidebar's loop, a second tab) buys nothing while the question is open.
    const n = t.h.sent.length;
    p = await t.h.call("enrichStep", { jobId: p.jobId });
    expect(t.h.sent.length).toBe(n);
    expect(p.afterMatching).toEqual(a);
    // A sidebar opened later finds the run and its question.
    expect(await t.h.call("enrichStatus")).toMatchObject({ jobId: p.jobId, afterMatching: a });

    p = await t.h.call("enrichConfirm", { jobId: p.jobId, proceed: true });
    expect(p.afterMatching).toBeNull();
    const mid = t.balance();
    p = await t.steps(p);
    expect(p.finished).toBe(true);
    expect(p.overBudget).toBe(false);
    expect(mid - t.balance()).toBe(a.credits);
    expect(p.creditsSpent).toBe(before - t.balance());
    expect(p).toMatchObject({ matched: 225, notFound: 10, unbought: 0, processed: t.rows });
    // Answering again changes nothing and spends nothing.
    const m = t.h.sent.length;
    await t.h.call("enrichConfirm", { jobId: p.jobId, proceed: true });
    expect(t.h.sent.length).toBe(m);
  });

  it("Cancel buys nothing more and leaves the matched ids written; a new start buys them without matching again", async () => {
    const t = await setup(210, 300);
    let p = await t.steps(await t.h.call<EnrichProgressView>("enrichStart", t.config));
    const a = p.afterMatching!;
    const afterMatching = t.balance();
    p = await t.h.call("enrichConfirm", { jobId: p.jobId, proceed: false });
    expect(p).toMatchObject({ finished: true, cancelled: true, afterMatching: null });
    p = await t.h.call("enrichStep", { jobId: p.jobId });
    expect(t.balance()).toBe(afterMatching);
    expect(await t.h.call("enrichStatus")).toBeNull();
    expect(t.h.workbook.get("Liste", 2, 2)).toBe("abgeglichen, Profil nicht gekauft");
    expect(String(t.h.workbook.get("Liste", 2, 4))).toMatch(/^DE[A-Z0-9]{10}$/);
    // Started again: the ids are carried, nothing is left to match, so the first price is already the exact one
    // (no second question) and the run spends it, and nothing for matching.
    const again = await t.h.call("enrichPreview", t.config);
    expect(again.estimate.credits).toBe(a.credits);
    p = await t.steps(await t.h.call<EnrichProgressView>("enrichStart", t.config));
    expect(p.afterMatching ?? null).toBeNull();
    expect(p.finished).toBe(true);
    expect(afterMatching - t.balance()).toBe(a.credits);
    expect(t.h.workbook.get("Liste", 2, 2)).toBe("gefunden");
  });

  it("a small list asks once: no stop after matching", async () => {
    const t = await setup(20, 600);
    const p = await t.steps(await t.h.call<EnrichProgressView>("enrichStart", t.config));
    expect(p.finished).toBe(true);
    expect(p.afterMatching ?? null).toBeNull();
    expect(p.matched).toBe(25);
    await expect(t.h.call("enrichConfirm", { jobId: p.jobId, proceed: true })).rejects.toThrow(
      /Bestätigung|confirmation/,
    );
  });

  it("firstStep (what the sidebar sends): the start matches and the confirmation buys in the same call, at the same price", async () => {
    const t = await setup(220, 900);
    const before = t.balance();
    const started = await t.h.call<EnrichProgressView>("enrichStart", { ...t.config, firstStep: true });
    // One call matched (the batch resolves) without buying a profile: the same first stop as start + step.
    expect(started.processed).toBeGreaterThan(0);
    expect(before - t.balance()).toBeGreaterThan(0);
    let p = await t.steps(started);
    const a = p.afterMatching!;
    expect(a).toBeTruthy();
    const mid = t.balance();
    const n = t.h.sent.length;
    p = await t.h.call("enrichConfirm", { jobId: p.jobId, proceed: true, firstStep: true });
    // The first buying step ran in the confirmation's call.
    expect(t.h.sent.length).toBeGreaterThan(n);
    expect(mid - t.balance()).toBeGreaterThan(0);
    p = await t.steps(p);
    expect(p.finished).toBe(true);
    expect(mid - t.balance()).toBe(a.credits);
    expect(p.creditsSpent).toBe(before - t.balance());
    // A wrong type is refused by name.
    await expect(t.h.call("enrichStart", { ...t.config, firstStep: "yes" })).rejects.toThrow(/firstStep/);
  });
});
