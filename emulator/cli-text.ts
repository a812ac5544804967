/**
 * What the emulator's command says, German and English, in the language of
 * every Node program's one rule (shared/i18n/locale.ts: --lang, else the
 * locale; C, C.UTF-8, POSIX and en_* English). Its API answers are another
 * matter: their labels follow each request's Accept-Language, German by
 * default, as the real service's (./i18n.ts).
 */
import type { Bilingual, Language } from "../shared/i18n/index.ts";
import { DEFAULT_COMPANIES, DEFAULT_SEED } from "./index.ts";

/** The flags, one per line, with what each does in both languages (names and values are the same). */
const FLAGS: [string, Bilingual][] = [
  [
    "--port N",
    {
      en: "port (default 8787, env PORT; 0 = any free port)",
      de: "Port (Standard 8787, Umgebung PORT; 0 = ein freier Port)",
    },
  ],
  ["--host H", { en: "interface (default 127.0.0.1)", de: "Schnittstelle (Standard 127.0.0.1)" }],
  [
    "--companies N",
    {
      en: `synthetic companies (default ${DEFAULT_COMPANIES}; tested up to 500000)`,
      de: `erfundene Firmen (Standard ${DEFAULT_COMPANIES}; getestet bis 500000)`,
    },
  ],
  ["--seed N", { en: `data seed (default ${DEFAULT_SEED})`, de: `Startwert der Daten (Standard ${DEFAULT_SEED})` }],
  [
    "--date YYYY-MM-DD",
    {
      en: 'the emulator\'s first "today" (default: the current date)',
      de: "das erste „Heute“ des Emulators (Standard: das aktuelle Datum)",
    },
  ],
  ["--demo-key KEY", { en: "fix the demo key's value", de: "den Wert des Demo-Schlüssels festlegen" }],
  [
    "--lang de|en",
    {
      en: "language of these messages (default: from the locale)",
      de: "Sprache dieser Meldungen (Standard: aus der Locale)",
    },
  ],
  ["--latency MS", { en: "added latency per API call", de: "zusätzliche Latenz je API-Aufruf" }],
  ["--jitter MS", { en: "extra random latency 0..MS", de: "weitere zufällige Latenz 0..MS" }],
  [
    "--fail-rate R",
    { en: "share 0..1 of calls answered 500/503", de: "Anteil 0..1 der Aufrufe, die 500/503 antworten" },
  ],
  [
    "--drop-rate R",
    { en: "share 0..1 of calls whose connection is dropped", de: "Anteil 0..1 der Aufrufe, deren Verbindung abbricht" },
  ],
  ["--rate-limit-burst N", { en: "the first N API calls answer 429", de: "die ersten N API-Aufrufe antworten 429" }],
  [
    "--burst-every N",
    { en: "recurring 429 bursts: after every N API calls…", de: "wiederkehrende 429-Schübe: nach je N API-Aufrufen …" },
  ],
  [
    "--burst-length N",
    { en: "…the next N calls answer 429 (default 3)", de: "… antworten die nächsten N mit 429 (Standard 3)" },
  ],
  [
    "--burst-retry-after S",
    { en: "Retry-After seconds of burst 429s (default 1)", de: "Retry-After-Sekunden der Schub-429 (Standard 1)" },
  ],
  [
    "--credits-run-out N",
    {
      en: "paid calls answer 402 after N more credits",
      de: "kostenpflichtige Aufrufe antworten 402 nach N weiteren Credits",
    },
  ],
  [
    "--max-concurrent N",
    {
      en: "API requests one key may have in flight; more answer 429",
      de: "gleichzeitige API-Anfragen je Schlüssel; weitere antworten 429",
    },
  ],
  [
    "--drift",
    {
      en: "answer as a service that drifted from the assumptions (renamed and\n                        missing fields, problem+json errors, no rate-limit headers; drift.ts)",
      de: "antworten wie ein Dienst, der von den Annahmen abweicht (umbenannte\n                        und fehlende Felder, problem+json-Fehler, keine Rate-Limit-Header; drift.ts)",
    },
  ],
  [
    "--suggest-rate R --suggest-burst N",
    { en: "suggest bucket (tokens/s, capacity)", de: "Suggest-Eimer (Token/s, Kapazität)" },
  ],
  ["--resolve-rate R --resolve-burst N", { en: "resolve bucket", de: "Resolve-Eimer" }],
  ["--availability-rate R --availability-burst N", { en: "", de: "" }],
  ["--account-rate R --account-burst N", { en: "", de: "" }],
];

/** `--help`: usage, then each flag with what it does. */
export function helpText(lang: Language): string {
  const head =
    lang === "de"
      ? "Aufruf: npm run emulator -- [Optionen]   (installiert: company-data emulator [Optionen])"
      : "Usage: npm run emulator -- [flags]   (installed: company-data emulator [flags])";
  const lines = FLAGS.map(([flag, what]) => {
    const text = what[lang];
    if (!text) return `  ${flag}`;
    return flag.length > 21 ? `  ${flag}      ${text}` : `  ${flag.padEnd(22)}${text}`;
  });
  return [head, ...lines].join("\n");
}

/** What to tell a newcomer once the server runs. */
export function bannerText(url: string, demoKey: string, companies: number, today: string, lang: Language): string {
  const de = lang === "de";
  return [
    de
      ? `API-Emulator für Firmendaten auf ${url}  (${companies} Firmen, heute ${today})`
      : `Company data API emulator on ${url}  (${companies} companies, today ${today})`,
    de ? `Demo-Schlüssel: ${demoKey}` : `Demo key: ${demoKey}`,
    ``,
    de ? `CLI und Add-ons darauf richten:` : `Point the CLI and the add-ons at it:`,
    `  COMPANY_DATA_BASE_URL=${url} COMPANY_DATA_API_KEY=${demoKey}`,
    de ? `Ausprobieren:` : `Try it:`,
    `  curl -s ${url}/v2/account -H 'Authorization: Bearer ${demoKey}'`,
    `  curl -s -X POST ${url}/v2/search -H 'Authorization: Bearer ${demoKey}' -H 'Content-Type: application/json' -d '{"query":"Software München","size":5}'`,
    de
      ? `Referenz: ${url}/v2/docs   Neuer Schlüssel mit 100 Credits: curl -s -X POST ${url}/_emulator/keys`
      : `Reference: ${url}/v2/docs   New key with 100 credits: curl -s -X POST ${url}/_emulator/keys`,
  ].join("\n");
}

/** Said once it listens, and when a flag is wrong. */
export const EMULATOR_TEXTS = {
  ready: (ms: number): Bilingual => ({ de: `(bereit in ${ms} ms)`, en: `(ready in ${ms} ms)` }),
  needsValue: (flag: string): Bilingual => ({ de: `${flag} braucht einen Wert`, en: `${flag} needs a value` }),
  notNumber: (flag: string, min: number, v: string): Bilingual => ({
    de: `${flag}: keine Zahl >= ${min}: ${v}`,
    en: `${flag}: not a number >= ${min}: ${v}`,
  }),
  notWhole: (flag: string, n: number): Bilingual => ({
    de: `${flag}: keine ganze Zahl: ${n}`,
    en: `${flag}: not a whole number: ${n}`,
  }),
  unknown: (flag: string): Bilingual => ({
    de: `unbekannte Option ${flag} (siehe --help)`,
    en: `unknown flag ${flag} (see --help)`,
  }),
  badLang: (v: string): Bilingual => ({ de: `--lang: de oder en, nicht ${v}`, en: `--lang: de or en, not ${v}` }),
};

/** A wrong flag: the English message (what tests and logs read), the German beside it. */
export class FlagError extends Error {
  constructor(readonly text: Bilingual) {
    super(text.en);
  }
}
