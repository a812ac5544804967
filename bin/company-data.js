#!/usr/bin/env node
// The `company-data` command: registers tsx so the TypeScript sources run
// as they are (no build step in a clone), then starts the CLI.
import { register } from "tsx/esm/api";

register();
await import(new URL("../cli/main.ts", import.meta.url).href);
