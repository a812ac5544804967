/**
 * What the add-in keeps in the workbook's own settings (Office.Settings,
 * saved into the file): the workbook's random id (it scopes the budget,
 * spend log and checkpoints in OfficeRuntime.storage) and the language the
 * card's property names are pinned to (`=A2.Revenue` must keep working when
 * a colleague with German Office opens the file). Never the API key.
 *
 * Only the task pane writes them, in its Office.onReady (ensureIdentity):
 * Microsoft's guidance for custom functions is to keep their calls
 * read-only ("Call Microsoft Excel APIs from a custom function": "Keep these
 * calls read-only"), and Settings.saveAsync writes the document
 * ("Persist add-in state and settings"). Custom functions read
 * (awaitIdentity); in the shared runtime the task pane's page is the
 * runtime's page, so its onReady runs whenever functions run, and a
 * function that finds no id yet waits for it. The two bundles (functions.js,
 * taskpane.js) meet on the page's global object.
 */
import type { Language } from "../../shared/i18n/index.ts";

export const ID_SETTING = "companyData.workbookId";
export const CARD_LANGUAGE_SETTING = "companyData.cardLanguage";
const SLOT = "__companyDataWorkbookIdentity";
/** How long a function waits for the task pane's start before it works with a session-only identity. */
export const IDENTITY_WAIT_MS = 10_000;
/** How long the task pane's start waits for Settings.saveAsync to call back. */
export const SAVE_WAIT_MS = 5_000;

export interface SettingsBag {
  get(name: string): unknown;
  set(name: string, value: unknown): void;
  saveAsync(callback?: (result: { status?: string }) => void): void;
}

export interface WorkbookIdentity {
  id: string;
  /** The language the card's property names are in, for this workbook, whoever opens it. */
  cardLanguage: Language;
}

interface Slot {
  promise: Promise<WorkbookIdentity>;
  resolve(identity: WorkbookIdentity): void;
  settled?: WorkbookIdentity;
}

function slot(scope: Record<string, unknown>): Slot {
  let s = scope[SLOT] as Slot | undefined;
  if (!s) {
    let resolve!: (i: WorkbookIdentity) => void;
    const promise = new Promise<WorkbookIdentity>((r) => (resolve = r));
    s = {
      promise,
      resolve: (i) => {
        if (!s!.settled) {
          s!.settled = i;
          resolve(i);
        }
      },
    };
    scope[SLOT] = s;
  }
  return s;
}

const asLanguage = (v: unknown): Language | undefined => (v === "de" || v === "en" ? v : undefined);

/** What the workbook holds now (either part may be missing). */
export function readIdentity(bag: SettingsBag | undefined): { id?: string; cardLanguage?: Language } {
  if (!bag) return {};
  const id = bag.get(ID_SETTING);
  return {
    id: typeof id === "string" && id ? id : undefined,
    cardLanguage: asLanguage(bag.get(CARD_LANGUAGE_SETTING)),
  };
}

const complete = (r: { id?: string; cardLanguage?: Language }): WorkbookIdentity | undefined =>
  r.id && r.cardLanguage ? { id: r.id, cardLanguage: r.cardLanguage } : undefined;

/**
 * The task pane's start: create what is missing and save it into the
 * workbook. A failed save keeps the values for this session (in Office's
 * in-memory settings); the next start saves again.
 */
export async function ensureIdentity(
  bag: SettingsBag | undefined,
  language: Language,
  newId: () => string,
  scope: Record<string, unknown> = globalThis,
): Promise<WorkbookIdentity> {
  const s = slot(scope);
  if (!bag) {
    // No document (a test page): an identity for this session only.
    const session = s.settled ?? { id: `session-${newId()}`, cardLanguage: language };
    s.resolve(session);
    return session;
  }
  const found = readIdentity(bag);
  const done = complete(found);
  if (done) {
    s.resolve(done);
    return done;
  }
  const identity: WorkbookIdentity = { id: found.id ?? newId(), cardLanguage: found.cardLanguage ?? language };
  bag.set(ID_SETTING, identity.id);
  bag.set(CARD_LANGUAGE_SETTING, identity.cardLanguage);
  // Office's in-memory settings hold it now: waiting functions may go on while the file is saved.
  s.resolve(identity);
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([
    new Promise<void>((resolve) => bag.saveAsync(() => resolve())),
    // A save that never calls back must not keep the task pane from starting.
    new Promise<void>((resolve) => (timer = setTimeout(resolve, SAVE_WAIT_MS))),
  ]);
  clearTimeout(timer);
  return identity;
}

/**
 * For custom functions: read only. A workbook that has its identity answers
 * at once; otherwise wait for the task pane's start; if it never comes
 * (IDENTITY_WAIT_MS), use a session-only id, written nowhere.
 */
export async function awaitIdentity(
  bag: SettingsBag | undefined,
  language: Language,
  newId: () => string,
  scope: Record<string, unknown> = globalThis,
  waitMs = IDENTITY_WAIT_MS,
): Promise<WorkbookIdentity> {
  const done = complete(readIdentity(bag));
  if (done) return done;
  const s = slot(scope);
  if (s.settled) return s.settled;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<WorkbookIdentity>((resolve) => {
    timer = setTimeout(() => {
      const found = readIdentity(bag);
      resolve(s.settled ?? { id: found.id ?? `session-${newId()}`, cardLanguage: found.cardLanguage ?? language });
    }, waitMs);
  });
  try {
    const identity = await Promise.race([s.promise, late]);
    // Every later call of this session gets the same answer.
    s.resolve(identity);
    return identity;
  } finally {
    clearTimeout(timer);
  }
}

/** What newWorkbookId needs of the page's `crypto`. */
export interface RandomSource {
  randomUUID?: () => string;
  getRandomValues<T extends Uint8Array>(array: T): T;
}

/**
 * A random version-4 UUID for the workbook's id. `crypto.randomUUID` came
 * late to the webviews Excel runs add-ins in (Safari 15.4; Chromium 92),
 * while `crypto.getRandomValues` is everywhere: older Mac Excel (WKWebView
 * of an older macOS) and WebView2 builds get the same kind of id from it
 * (RFC 9562, section 5.4: version 4, variant 10).
 */
export function newWorkbookId(c: RandomSource): string {
  if (typeof c.randomUUID === "function") return c.randomUUID();
  const b = c.getRandomValues(new Uint8Array(16));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const hex = [...b].map((x) => x.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
