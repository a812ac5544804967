/**
 * `npm start`: the emulator on 127.0.0.1:8787 (PORT overrides) and the
 * playground beside it (PLAYGROUND_PORT, default 8788), so a newcomer uses
 * the real UI against real API behaviour without any account.
 * Emulator flags pass through: `npm start -- --companies 50000 --latency 100`.
 */
import { createEmulator } from "../emulator/index.ts";
import { startServer } from "../emulator/server.ts";
import { banner, parseArgs } from "../emulator/cli.ts";
import { startPlayground } from "./playground-server.ts";
import { portInUseMessage, startLanguage } from "./port-in-use.ts";

const parsed = parseArgs(process.argv.slice(2), process.env);
if (parsed === "help") {
  console.log("npm start -- [emulator flags]; see npm run emulator -- --help");
  process.exit(0);
}

const lang = startLanguage(process.env);
const playgroundPort = process.env.PLAYGROUND_PORT ? Number(process.env.PLAYGROUND_PORT) : 8788;

/** A busy port is a user's situation (a second `npm start`), not a crash: say which and how to choose others. */
function failOnBusyPort(err: unknown, port: number, what: "api" | "playground"): never {
  if ((err as NodeJS.ErrnoException)?.code === "EADDRINUSE") {
    console.error(portInUseMessage(port, what, lang));
    process.exit(1);
  }
  throw err;
}

const emulator = createEmulator(parsed.emulator);
const api = await startServer(emulator, { port: parsed.port, host: parsed.host }).catch((e) =>
  failOnBusyPort(e, parsed.port, "api"),
);
const playground = await startPlayground({
  port: playgroundPort,
  emulatorUrl: api.url,
  demoKey: emulator.demoKey,
  ambiguousNames: emulator.companies.duplicateNames(6).map((d) => d.name),
}).catch(async (e) => {
  await api.close();
  return failOnBusyPort(e, playgroundPort, "playground");
});

console.log(banner(api.url, emulator.demoKey, emulator.companies.count, emulator.clock.today()));
console.log(`\nPlayground (the add-on's UI on a sample sheet): ${playground.url}\n`);
console.log("Stop with Ctrl+C.");

const stop = async () => {
  await Promise.allSettled([playground.close(), api.close()]);
  process.exit(0);
};
process.on("SIGINT", () => void stop());
process.on("SIGTERM", () => void stop());
