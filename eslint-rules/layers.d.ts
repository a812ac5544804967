import type { ESLint } from "eslint";
/** Lowest first: [layer name, folders of shared/ in it, in their allowed import order]. */
export declare const LAYERS: readonly (readonly [string, readonly string[]])[];
export declare const layersPlugin: ESLint.Plugin;
