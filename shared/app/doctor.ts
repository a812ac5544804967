/**
 * `doctor`: the free self-test (shared/doctor/) as an app method, for
 * Settings → Test connection in Sheets, Excel and the playground. It tests
 * the same connection as testConnection (what is typed, else what is saved)
 * and answers the report as plain JSON; the UI shows it with
 * shared/ui/panels/doctor-report.ts.
 */
import type { Operation } from "../core/index.ts";
import { runDoctor } from "../doctor/index.ts";
import type { DoctorReport } from "../doctor/index.ts";
import type { AppDeps } from "./protocol.ts";
import { connectionClient } from "./settings-methods.ts";

export function* doctorMethod(deps: AppDeps, input: unknown): Operation<DoctorReport> {
  return yield* runDoctor(yield* connectionClient(deps, input));
}
