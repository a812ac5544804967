/**
 * The public surface of shared/ui/: what the hosts and the layers above use.
 * Import from here, never from a module inside (eslint-rules/layers.js);
 * modules of this folder import each other directly.
 */
export { mountApp } from "./app.ts";
export { field, h, replace } from "./dom.ts";
export type { Child } from "./dom.ts";
// The team console (console/) builds its page with the same pieces and reads its texts the same way.
export { format, lookup } from "./strings.ts";
export { hostFromEnvelopes, overrideCalls, UiCallError } from "./host.ts";
export type { AppCall, CallOverrides, UiHost } from "./host.ts";
export { directHost } from "./hosts/direct.ts";
export { PANEL_IDS } from "./panels/registry.ts";
