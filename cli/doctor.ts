/**
 * `company-data doctor [--json]`: the free self-test (shared/doctor/) against
 * the configured service. Text in the user's language, or the report as JSON
 * on stdout for scripts. It spends nothing and says so (balance before =
 * after). Exit codes (EXIT in ./i18n.ts): 0 everything as expected,
 * 10 differences but safe to spend (values named in the report stay empty),
 * 11 not safe to spend, 5 key missing or rejected, 6 service not reachable.
 */
import { runAsync } from "../shared/core/index.ts";
import { runDoctor } from "../shared/doctor/index.ts";
import { reportLines } from "../shared/doctor/index.ts";
import type { DoctorReport, Verdict } from "../shared/doctor/index.ts";
import type { Language } from "../shared/i18n/index.ts";
import type { OpContext } from "../shared/operations/index.ts";
import { nodeDriver } from "../node/index.ts";
import type { Io } from "./io.ts";
import { EXIT } from "./i18n.ts";

export const DOCTOR_EXIT: Record<Verdict, number> = {
  pass: EXIT.OK,
  degraded: EXIT.DRIFT,
  unsafe: EXIT.UNSAFE,
  key: EXIT.KEY,
  unreachable: EXIT.SERVICE,
};

export async function doctorCommand(
  ctx: OpContext,
  io: Io,
  opts: { json: boolean; lang: Language },
): Promise<{ code: number; report: DoctorReport }> {
  // One attempt per call: the doctor waits for a 429 itself and otherwise reports what it saw.
  const report = await runAsync(runDoctor(ctx.client), nodeDriver());
  if (opts.json) io.out(JSON.stringify(report, null, 2));
  else for (const line of reportLines(report, opts.lang)) io.out(line);
  return { code: DOCTOR_EXIT[report.verdict], report };
}
