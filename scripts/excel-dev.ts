/**
 * npm run excel:dev — build the add-in, serve dist/excel-addin on
 * https://localhost:3000 with the Office dev certificate
 * (office-addin-dev-certs installs it on first use, which may ask for
 * confirmation), and run the emulator beside it, on the port `npm start`
 * uses: PORT (default 8787) or `--port N`; every emulator flag passes
 * through (`npm run excel:dev -- --port 9000 --latency 100`). The add-in's
 * port stays 3000: the dev manifest names it, as the Office tooling expects.
 * The emulator answers CORS for https://localhost:3000.
 */
import { createServer } from "node:https";
import { getHttpsServerOptions } from "office-addin-dev-certs";
import { build, DEFAULT_OUT } from "./build-excel.ts";
import { staticHandler } from "../excel-addin/build/static.ts";
import { DEV_HOST_URL } from "../excel-addin/build/manifest.ts";
import { createEmulator } from "../emulator/index.ts";
import { startServer } from "../emulator/server.ts";
import { parseArgs } from "../emulator/cli.ts";

const ADDIN_PORT = Number(new URL(DEV_HOST_URL).port);

/** Listen, or explain which port is busy and how to choose another. */
function busy(what: string, port: number, how: string) {
  return (e: NodeJS.ErrnoException) => {
    if (e.code === "EADDRINUSE")
      throw new Error(`${what}: port ${port} is in use (another excel:dev or npm start?). ${how}`);
    throw e;
  };
}

async function main() {
  const parsed = parseArgs(process.argv.slice(2), process.env);
  if (parsed === "help") {
    console.log(
      "npm run excel:dev -- [emulator flags]; the emulator's port: PORT or --port (default 8787); see npm run emulator -- --help",
    );
    return;
  }
  await build({ minify: false });
  const https = await getHttpsServerOptions();
  const handle = staticHandler(DEFAULT_OUT);
  const server = createServer(https, (req, res) => void handle(req, res));
  await new Promise<void>((resolve, reject) =>
    server.once("error", reject).listen(ADDIN_PORT, "localhost", resolve),
  ).catch(busy("add-in server", ADDIN_PORT, "Stop the other process: the dev manifest names https://localhost:3000."));
  const emulator = createEmulator(parsed.emulator);
  const api = await startServer(emulator, { port: parsed.port, host: parsed.host }).catch(
    busy(
      "emulator",
      parsed.port,
      "Choose another with PORT=9000 npm run excel:dev, or npm run excel:dev -- --port 9000.",
    ),
  );
  console.log(`add-in    ${DEV_HOST_URL}/taskpane.html`);
  console.log(`emulator  ${api.url}   demo key: ${emulator.demoKey}`);
  console.log(`manifest  ${DEFAULT_OUT}/manifest-dev.xml (sideloading: excel-addin/README.md)`);
  console.log(`settings  base URL ${api.url}, API key: the demo key above`);
  const stop = async () => {
    server.close();
    await api.close();
    process.exit(0);
  };
  process.on("SIGINT", () => void stop());
  process.on("SIGTERM", () => void stop());
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
