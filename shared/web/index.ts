/**
 * The public surface of shared/web/: what the hosts and the layers above use.
 * Import from here, never from a module inside (eslint-rules/layers.js);
 * modules of this folder import each other directly.
 */
export { corsRefusedMessage, probeCors } from "./cors-probe.ts";
export { addressSpaceOf, diagnoseFailure, lnaApplies, lnaPermission } from "./local-network.ts";
export type { AddressSpace, Diagnosis, FailureCause } from "./local-network.ts";
export {
  CELL_MESSAGE_MAX,
  networkCellMessage,
  networkFailureMessage,
  SERVER_PLACEMENT_DOCS,
} from "./network-messages.ts";
export { fetchHttp } from "./fetch-http.ts";
export type { FetchLike } from "./fetch-http.ts";
export { limitedHttp } from "./limited-http.ts";
