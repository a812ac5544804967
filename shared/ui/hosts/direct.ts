/**
 * A host that runs the app service in the page itself (Excel task pane,
 * playground): each call is one runAsync over the host's AsyncDriver.
 */
import { runAsync, type AsyncDriver } from "../../core/index.ts";
import { settle } from "../../app/index.ts";
import type { AppDeps, HostKind } from "../../app/index.ts";
import { hostFromEnvelopes, type UiHost } from "../host.ts";

export function directHost(kind: HostKind, driver: AsyncDriver, deps: () => AppDeps | Promise<AppDeps>): UiHost {
  return hostFromEnvelopes(kind, async (method, input) => runAsync(settle(await deps(), method, input), driver));
}
