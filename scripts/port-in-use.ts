/**
 * What `npm start` (and `npm run excel:dev`) say when a port is taken: which
 * port, what probably holds it, and the variables that choose others.
 */
import { processLanguage, type Language } from "../shared/i18n/index.ts";

export function portInUseMessage(port: number, what: "api" | "playground", lang: Language): string {
  const variable = what === "api" ? "PORT" : "PLAYGROUND_PORT";
  if (lang === "de") {
    const [name, ofName] = what === "api" ? ["der Emulator", "des Emulators"] : ["der Playground", "des Playgrounds"];
    return (
      `Port ${port} ist belegt: ${name} kann dort nicht starten (läuft \`npm start\` schon in einem anderen Fenster?).\n` +
      `Andere Ports wählen: PORT=8790 PLAYGROUND_PORT=8791 npm start  (${variable} ist der Port ${ofName}; 0 = ein freier Port)`
    );
  }
  const name = what === "api" ? "the emulator" : "the playground";
  return (
    `Port ${port} is in use, so ${name} cannot start there (is \`npm start\` already running in another window?).\n` +
    `Choose other ports: PORT=8790 PLAYGROUND_PORT=8791 npm start  (${variable} is the one for ${name}; 0 = any free port)`
  );
}

/** The language of `npm start`'s own messages: the one rule of every Node program (shared/i18n/locale.ts). */
export const startLanguage = (env: NodeJS.ProcessEnv): Language => processLanguage({ env, platform: process.platform });
