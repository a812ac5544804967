import type { ESLint } from "eslint";
/** Lowest first: [layer name, folders of shared/ in it, in their allowed import order]. */
export declare const LAYERS: readonly (readonly [string, readonly string[]])[];
/** Lowest first: [floor name, top-level folders on it]. */
export declare const FLOORS: readonly (readonly [string, readonly string[]])[];
/** Top-level folders of browser or Apps Script code. */
export declare const BROWSER: readonly string[];
/** Why an import from top-level folder `from` of `to` breaks the floors, or null. */
export declare function floorProblem(
  from: string | null,
  to: string | null,
  typeOnly: boolean,
): "upward" | "beside" | "node" | "types" | null;
/** The top-level folder a path lies in, or null. */
export declare function topOf(abs: string): string | null;
export declare const layersPlugin: ESLint.Plugin;
