/**
 * The doctor's report in the user's language: a verdict line (safe to spend
 * or not, and the proof that nothing was spent), then one line per finding
 * naming the field, what came instead and what it affects. The CLI prints
 * these lines; the UI module (shared/ui/panels/doctor-report.ts) shows the
 * same texts.
 */
import { catalogue, type Language } from "../i18n/index.ts";
import { countText, groupDigits, NOUNS } from "../credits/index.ts";
import type { DoctorReport, Finding, Verdict } from "./types.ts";

export const DOCTOR_TEXTS = catalogue({
  title: {
    de: (base: string, calls: number) =>
      `Dienst-Prüfung (kostenlos) gegen ${base}: ${calls} Aufrufe, nur kostenlose Endpunkte.`,
    en: (base: string, calls: number) => `Service check (free) against ${base}: ${calls} calls, free endpoints only.`,
  },
  spentNone: {
    de: (balance: string) => `0 Credits ausgegeben: Guthaben vorher und nachher ${balance}.`,
    en: (balance: string) => `0 credits spent: balance ${balance} before and after.`,
  },
  spentSome: {
    de: (n: string, before: string, after: string) =>
      `Achtung: ${n} ausgegeben (Guthaben ${before} → ${after}), obwohl nur kostenlose Aufrufe gesendet wurden.`,
    en: (n: string, before: string, after: string) =>
      `Warning: ${n} spent (balance ${before} → ${after}) although only free calls were sent.`,
  },
  spentUnknown: {
    de: "Das Guthaben war nicht lesbar: dass nichts ausgegeben wurde, ist nicht belegt (gesendet wurden nur Aufrufe zu 0 Credits).",
    en: "The balance could not be read: that nothing was spent is not proven (only calls priced at 0 credits were sent).",
  },
  verdict_pass: {
    de: "Ergebnis: alles wie erwartet. Ausgeben ist sicher.",
    en: "Result: everything as expected. Safe to spend.",
  },
  verdict_degraded: {
    de: "Ergebnis: Abweichungen, Ausgeben ist sicher; die unten genannten Werte bleiben leer.",
    en: "Result: differences; safe to spend, the values named below will be empty.",
  },
  verdict_unsafe: {
    de: "Ergebnis: NICHT sicher auszugeben. Der Dienst antwortet anders, als der Client liest: bezahlte Antworten wären unlesbar oder falsch.",
    en: "Result: NOT safe to spend. The service answers differently from what the client reads: paid answers would be unreadable or wrong.",
  },
  verdict_key: {
    de: "Ergebnis: der API-Schlüssel wurde abgelehnt; nichts geprüft.",
    en: "Result: the API key was rejected; nothing checked.",
  },
  verdict_unreachable: {
    de: "Ergebnis: der Dienst ist nicht erreichbar oder gestört; nichts geprüft.",
    en: "Result: the service cannot be reached or is failing; nothing checked.",
  },
  findingsTitle: { de: "Befunde:", en: "Findings:" },
  none: { de: "Keine Abweichungen.", en: "No differences." },
  missing: {
    de: (probe: string, path: string, renamed: string) =>
      `${probe}: das Feld \`${path}\` fehlt${renamed ? ` (vermutlich umbenannt in \`${renamed}\`)` : ""}.`,
    en: (probe: string, path: string, renamed: string) =>
      `${probe}: the field \`${path}\` is missing${renamed ? ` (probably renamed to \`${renamed}\`)` : ""}.`,
  },
  type: {
    de: (probe: string, path: string, expected: string, got: string) =>
      `${probe}: das Feld \`${path}\` ist ${got} statt ${expected}.`,
    en: (probe: string, path: string, expected: string, got: string) =>
      `${probe}: the field \`${path}\` is ${got}, not ${expected}.`,
  },
  value: {
    de: (probe: string, path: string, expected: string, got: string) =>
      `${probe}: \`${path}\` ist „${got}“, erwartet ${expected}.`,
    en: (probe: string, path: string, expected: string, got: string) =>
      `${probe}: \`${path}\` is "${got}", expected ${expected}.`,
  },
  unknown: {
    de: (probe: string, path: string, got: string) =>
      `${probe}: neue Felder${path === "(answer)" ? "" : ` in \`${path}\``}: ${got}.`,
    en: (probe: string, path: string, got: string) =>
      `${probe}: new fields${path === "(answer)" ? "" : ` in \`${path}\``}: ${got}.`,
  },
  status: {
    de: (probe: string, expected: string, got: string) => `${probe}: HTTP-Status ${got} statt ${expected}.`,
    en: (probe: string, expected: string, got: string) => `${probe}: HTTP status ${got}, not ${expected}.`,
  },
  notJson: {
    de: (probe: string, got: string) => `${probe}: die Antwort ist kein JSON (${got}).`,
    en: (probe: string, got: string) => `${probe}: the answer is not JSON (${got}).`,
  },
  charged: {
    de: (probe: string, got: string) => `${probe}: der Dienst meldet ${got} berechnete Credits (x-credits-charged).`,
    en: (probe: string, got: string) => `${probe}: the service reports ${got} credits charged (x-credits-charged).`,
  },
  headers: {
    de: (names: string) => `Keine Credit-Header (${names}) in den Antworten.`,
    en: (names: string) => `No credit headers (${names}) on the answers.`,
  },
  rateLimitNone: {
    de: "Rate-Limit-Header: keine. Der Client taktet nach seiner eigenen Tabelle und beachtet Retry-After bei 429.",
    en: "Rate-limit headers: none. The client paces by its own table and honours Retry-After on 429.",
  },
  rateLimitSeen: {
    de: (names: string) => `Rate-Limit-Header: ${names}.`,
    en: (names: string) => `Rate-limit headers: ${names}.`,
  },
  notChecked: {
    de: (list: string) =>
      `Nicht aufgerufen (kostenpflichtig): ${list}; ihre Felder werden aus den kostenlosen Antworten geschlossen.`,
    en: (list: string) => `Not called (paid): ${list}; their fields are inferred from the free answers.`,
  },
});

const MARK = { breaking: "✗", degraded: "!", info: "i" } as const;

/** One finding: what differs, then what it affects. */
export function findingText(f: Finding, lang: Language): string {
  const t = DOCTOR_TEXTS;
  let what: string;
  switch (f.kind) {
    case "missing":
      what = t.missing[lang](f.probe, f.path, f.renamedTo ?? "");
      break;
    case "type":
      what = t.type[lang](f.probe, f.path, f.expected, f.got);
      break;
    case "value":
      what = t.value[lang](f.probe, f.path, f.expected, f.got);
      break;
    case "unknown":
      what = t.unknown[lang](f.probe, f.path, f.got);
      break;
    case "status":
      what = t.status[lang](f.probe, f.expected, f.got);
      break;
    case "not-json":
      what = t.notJson[lang](f.probe, f.got);
      break;
    case "charged":
      what = t.charged[lang](f.probe, f.got);
      break;
    case "headers":
      what = t.headers[lang](f.path);
      break;
  }
  return `${MARK[f.severity]} ${what} ${f.effect[lang]}`;
}

export function verdictText(v: Verdict, lang: Language): string {
  return DOCTOR_TEXTS[`verdict_${v}`][lang];
}

/** The balance proof in words. */
export function spendText(r: DoctorReport, lang: Language): string {
  const { before, after, spent } = r.credits;
  if (before === null || after === null || spent === null) return DOCTOR_TEXTS.spentUnknown[lang];
  if (spent === 0) return DOCTOR_TEXTS.spentNone[lang](groupDigits(before, lang));
  return DOCTOR_TEXTS.spentSome[lang](
    countText(spent, NOUNS.credit, lang),
    groupDigits(before, lang),
    groupDigits(after, lang),
  );
}

const ORDER = { breaking: 0, degraded: 1, info: 2 } as const;
/** Worst first (breaking, degraded, info), in the order found within each. */
export const worstFirst = (findings: readonly Finding[]): Finding[] =>
  [...findings].sort((a, b) => ORDER[a.severity] - ORDER[b.severity]);

/** The whole report as lines (the CLI prints them; worst findings first). */
export function reportLines(r: DoctorReport, lang: Language): string[] {
  const findings = worstFirst(r.findings);
  const lines = [DOCTOR_TEXTS.title[lang](r.baseUrl, r.probes.length), verdictText(r.verdict, lang)];
  if (r.verdict === "key" || r.verdict === "unreachable") return lines;
  lines.push(spendText(r, lang), "", DOCTOR_TEXTS.findingsTitle[lang]);
  if (findings.length === 0) lines.push(DOCTOR_TEXTS.none[lang]);
  for (const f of findings) lines.push(findingText(f, lang));
  lines.push(
    "",
    r.rateLimitHeaders.length
      ? DOCTOR_TEXTS.rateLimitSeen[lang](r.rateLimitHeaders.join(", "))
      : DOCTOR_TEXTS.rateLimitNone[lang],
  );
  lines.push(DOCTOR_TEXTS.notChecked[lang](r.notChecked.join(", ")));
  return lines;
}
