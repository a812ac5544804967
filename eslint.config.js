// Lint: typescript-eslint's recommended rules with type information (floating
// and misused promises, unsafe any, needless assertions, unbound methods …).
// Layout is Prettier's job (.prettierrc.json, `npm run format`; `npm run lint`
// and `npm test` check it); eslint-config-prettier switches off any rule that
// would disagree with it. Run by `npm test` (npm run lint).
import js from "@eslint/js";
import tseslint from "typescript-eslint";
import prettierOff from "eslint-config-prettier";
import { layersPlugin } from "./eslint-rules/layers.js";

export default tseslint.config(
  { ignores: ["dist/**", "node_modules/**", "**/*.js"] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // Sans-IO operations are generators by contract (`Operation<T>`); one that
      // needs no effect on some path still is one, so a generator without yield is fine.
      "require-yield": "off",
      // `_`-prefixed parameters and rest siblings are deliberate.
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", ignoreRestSiblings: true },
      ],
      // Drivers, stores and fakes implement async interfaces (`cacheGet`, `storePut`,
      // `Office.onReady` handlers …) with in-memory bodies: `async` keeps the contract
      // (a throw becomes a rejection) even where nothing is awaited.
      "@typescript-eslint/require-await": "off",
      // `v === null ? map.delete(k) : map.set(k, v)` and `ok && draw()` are the house
      // style for one-line effects; a bare expression with no effect is still an error.
      "@typescript-eslint/no-unused-expressions": ["error", { allowShortCircuit: true, allowTernary: true }],
      // Control characters in patterns are the point where input is sanitised
      // (NUL bytes in CSV, C0 characters in URLs and exported sheet XML).
      "no-control-regex": "off",
      // Untrusted input (cells, JSON bodies, saved settings) is `unknown` and becomes text
      // with `String(v ?? "")` on purpose; validation after it rejects what is not text.
      "@typescript-eslint/no-base-to-string": "off",
      // Caught values are passed on as they came (`catch (e) { reject(e) }`).
      "@typescript-eslint/prefer-promise-reject-errors": ["error", { allowThrowingUnknown: true }],
    },
  },
  {
    // The layers of shared/ and each folder's public surface (eslint-rules/layers.js, docs/architecture.md).
    files: ["**/*.ts"],
    plugins: { project: layersPlugin },
    rules: { "project/layers": "error" },
  },
  {
    // Tests read JSON bodies and fake platform objects as they come: `any` there is the point.
    files: ["test/**/*.ts", "bench/**/*.ts"],
    rules: {
      "@typescript-eslint/no-unsafe-member-access": "off",
      "@typescript-eslint/no-unsafe-assignment": "off",
      "@typescript-eslint/no-unsafe-call": "off",
      "@typescript-eslint/no-unsafe-argument": "off",
      "@typescript-eslint/no-unsafe-return": "off",
      "@typescript-eslint/no-explicit-any": "off",
      // `expect(fake.method).toHaveBeenCalled()` passes methods unbound on purpose.
      "@typescript-eslint/unbound-method": "off",
      // Failure messages interpolate whatever a test got back.
      "@typescript-eslint/restrict-template-expressions": "off",
    },
  },
  {
    // A bench run started from the command line should crash on a failure: that is
    // Node's default for an unhandled rejection, so the entry points leave it to Node.
    files: ["bench/**/*.ts"],
    rules: { "@typescript-eslint/no-floating-promises": "off" },
  },
  prettierOff,
);
