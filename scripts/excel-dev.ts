/**
 * npm run excel:dev — build the add-in, serve dist/excel-addin on
 * https://localhost:3000 with the Office dev certificate
 * (office-addin-dev-certs installs it on first use, which may ask for
 * confirmation), and run the emulator on http://127.0.0.1:8787 beside it
 * (it answers CORS for https://localhost:3000).
 */
import { createServer } from "node:https";
import { getHttpsServerOptions } from "office-addin-dev-certs";
import { build, DEFAULT_OUT } from "./build-excel.ts";
import { staticHandler } from "../excel-addin/build/static.ts";
import { createEmulator } from "../emulator/index.ts";
import { startServer } from "../emulator/server.ts";

const PORT = 3000;
const EMULATOR_PORT = 8787;

async function main() {
  await build({ minify: false });
  const https = await getHttpsServerOptions();
  const handle = staticHandler(DEFAULT_OUT);
  const server = createServer(https, (req, res) => void handle(req, res));
  await new Promise<void>((resolve, reject) => server.once("error", reject).listen(PORT, "localhost", resolve));
  const emulator = createEmulator();
  const api = await startServer(emulator, { port: EMULATOR_PORT, host: "127.0.0.1" });
  console.log(`add-in    https://localhost:${PORT}/taskpane.html`);
  console.log(`emulator  ${api.url}   demo key: ${emulator.demoKey}`);
  console.log("sideload  npx office-addin-debugging start manifests/excel-manifest.xml desktop");
  console.log(`          (Excel on the web: Insert › Add-ins › Upload My Add-in › manifests/excel-manifest.xml)`);
  console.log(`settings  base URL ${api.url}, API key: the demo key above`);
  const stop = async () => {
    server.close();
    await api.close();
    process.exit(0);
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
