/**
 * What `npm start` (and `npm run excel:dev`) say when a port is taken: which
 * port, what probably holds it, and the variables that choose others.
 */
import type { Language } from "../shared/i18n/language.ts";

export function portInUseMessage(port: number, what: "api" | "playground", lang: Language): string {
  const variable = what === "api" ? "PORT" : "PLAYGROUND_PORT";
  const name = what === "api" ? (lang === "de" ? "der Emulator" : "the emulator") : (lang === "de" ? "der Playground" : "the playground");
  return lang === "de"
    ? `Port ${port} ist belegt: ${name} kann dort nicht starten (läuft \`npm start\` schon in einem anderen Fenster?).\n` +
      `Andere Ports wählen: PORT=8790 PLAYGROUND_PORT=8791 npm start  (${variable} ist der für ${name}; 0 = ein freier Port)`
    : `Port ${port} is in use, so ${name} cannot start there (is \`npm start\` already running in another window?).\n` +
      `Choose other ports: PORT=8790 PLAYGROUND_PORT=8791 npm start  (${variable} is the one for ${name}; 0 = any free port)`;
}
