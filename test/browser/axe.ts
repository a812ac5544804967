/**
 * axe-core (the npm package `axe-core`) in a page of Chromium: its
 * axe.min.js evaluated into the page (Runtime.evaluate, so a page's CSP
 * does not stop it), then `axe.run` over the document or a part of it.
 * A test fails on a violation of impact "serious" or "critical"; the
 * lesser ones are returned too, for the report.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Page } from "playwright-core";

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  /** The first few offending elements' selectors and axe's summary of what is wrong. */
  nodes: { target: string; summary: string }[];
}

/** Run axe over `include` (a selector; default the whole document); every violation, worst first. */
export async function axeViolations(page: Page, include?: string): Promise<AxeViolation[]> {
  const loaded = await page.evaluate(() => typeof (window as unknown as { axe?: unknown }).axe !== "undefined");
  if (!loaded) await page.evaluate(AXE_SOURCE);
  const found = await page.evaluate(async (sel) => {
    const axe = (window as unknown as { axe: { run(ctx: unknown, opts: unknown): Promise<AxeResults> } }).axe;
    interface AxeResults {
      violations: {
        id: string;
        impact: string | null;
        help: string;
        nodes: { target: unknown[]; failureSummary?: string }[];
      }[];
    }
    const res = await axe.run(sel ? { include: [sel] } : document, { resultTypes: ["violations"] });
    return res.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.slice(0, 5).map((n) => ({ target: n.target.join(" "), summary: n.failureSummary ?? "" })),
    }));
  }, include ?? null);
  const rank = (i: string | null) => ["critical", "serious", "moderate", "minor"].indexOf(i ?? "minor");
  return found.sort((a, b) => rank(a.impact) - rank(b.impact));
}

/** Only the serious and critical ones: what a test holds at zero. */
export function serious(violations: AxeViolation[]): AxeViolation[] {
  return violations.filter((v) => v.impact === "serious" || v.impact === "critical");
}
