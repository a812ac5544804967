/**
 * The package's version (package.json, semver; CHANGELOG.md says what each
 * release changed): one source for `company-data --version`, the MCP
 * server's serverInfo and the reconciliation manifest's serviceVersion.
 * The bundle inlines it at build time (scripts/build-node.ts).
 */
import pkg from "../package.json" with { type: "json" };

export const PACKAGE_VERSION: string = pkg.version;
