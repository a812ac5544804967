/**
 * Vitest global setup: where no Chromium is installed and CI is not set, the
 * browser suites skip (skipWithoutChromium); this prints the one line that
 * says so and how to run them, instead of a skip per suite that a newcomer
 * cannot read. Under CI the suites themselves fail without Chromium.
 */
import { CHROMIUM, hasChromium } from "./browser.ts";

export default function chromiumNotice(): void {
  const ci = process.env.CI && process.env.CI !== "false" && process.env.CI !== "0";
  if (!hasChromium && !ci) {
    console.log(
      `Browser tests skipped: no Chromium at ${CHROMIUM}. To run them: apt-get install chromium (or set CHROMIUM_PATH), then npm test. CI runs them.`,
    );
  }
}
