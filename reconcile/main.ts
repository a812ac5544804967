/**
 * `company-data reconcile --http PORT`: the W3C Reconciliation Service API
 * (0.2) on the shared core, for OpenRefine and every reconciliation client.
 * Messages go to stderr; the service runs until SIGTERM or Ctrl-C.
 */
import { Pacer } from "../shared/api/index.ts";
import { toCompanyDataError } from "../shared/core/index.ts";
import { processLanguage, type Language } from "../shared/i18n/index.ts";
import { budgetText, callContext, isLoopback } from "../node/index.ts";
import { readConfig, serviceScope, type ReconcileConfig } from "./config.ts";
import { startReconcileHttp } from "./http.ts";
import { serviceDriver } from "./context.ts";
import { createReconcileService, type ReconcileService } from "./service.ts";

const OK = 0;
const USAGE = 2;

/** The service for one configuration: the Node driver (node:http, bounded cache, budget store), one pacer. */
export function serviceFor(cfg: ReconcileConfig, log: (line: string) => void): ReconcileService {
  const driver = serviceDriver();
  const src = {
    apiKey: cfg.apiKey,
    credential: cfg.credential,
    baseUrl: cfg.baseUrl,
    scope: serviceScope(cfg),
    pacer: new Pacer(),
    matchFloor: cfg.matchFloor,
  };
  return createReconcileService({
    driver,
    lang: cfg.lang,
    budget: cfg.budget,
    allowedOrigins: cfg.allowedOrigins,
    auth: cfg.token !== undefined ? "service" : "none",
    log,
    context: (_req, tally, lang) => callContext(src, tally, lang),
  });
}

/** `messageLang`: the language of a configuration error (the CLI's, from --lang or LANG). */
export async function runReconcile(
  argv: string[],
  env: NodeJS.ProcessEnv,
  err: (line: string) => void,
  messageLang?: Language,
): Promise<number> {
  let cfg: ReconcileConfig;
  try {
    cfg = readConfig(argv, env);
  } catch (e) {
    err(toCompanyDataError(e).text(messageLang ?? processLanguage({ env, platform: process.platform })));
    return USAGE;
  }
  const lang = cfg.lang;
  if (!cfg.apiKey) {
    const name = cfg.credential === "serverToken" ? "COMPANY_DATA_TOKEN" : "COMPANY_DATA_API_KEY";
    err(
      lang === "de"
        ? `Hinweis: ${name} ist nicht gesetzt; Abgleich und Erweiterung antworten mit einem Fehler, bis er gesetzt ist.`
        : `Note: ${name} is not set; reconciliation and extension answer an error until it is.`,
    );
  }
  let running;
  try {
    running = await startReconcileHttp(serviceFor(cfg, err), {
      port: cfg.port,
      host: cfg.host,
      token: cfg.token,
      log: err,
    });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? (lang === "de" ? "Fehler" : "error");
    err(
      lang === "de"
        ? `Port ${cfg.port} auf ${cfg.host} ist nicht verfügbar (${code}).`
        : `Port ${cfg.port} on ${cfg.host} is not available (${code}).`,
    );
    return USAGE;
  }
  if (!isLoopback(cfg.host))
    err(
      lang === "de"
        ? `Achtung: ${cfg.host} ist nicht nur dieser Rechner; jede Abfrage außer dem Manifest braucht das Token (Authorization: Bearer …).`
        : `Warning: ${cfg.host} is not this machine only; every request but the manifest needs the token (Authorization: Bearer …).`,
    );
  const budget = budgetText({ limit: cfg.budget, spent: 0, remaining: cfg.budget }, lang);
  err(
    lang === "de"
      ? `Abgleichdienst (Reconciliation API 0.2) auf ${running.url} ${budget}`
      : `Reconciliation service (Reconciliation API 0.2) at ${running.url} ${budget}`,
  );
  await new Promise<void>((resolve) => {
    const stop = () => {
      void running.close().finally(resolve);
    };
    process.once("SIGTERM", stop);
    process.once("SIGINT", stop);
  });
  return OK;
}
