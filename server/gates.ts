/**
 * Paid gates: checks an extension brings (routes.ts ServerExtension.paidGates) that may refuse a paid
 * request before anything is reserved or bought (the doctor's drift refusal, server/doctor/). Free
 * endpoints never pass a gate. A gate answers null to let the request through, or the answer to give
 * instead.
 */
import type { Language } from "../shared/i18n/index.ts";
import type { Db } from "./db/db.ts";
import type { ErrorAnswer } from "./errors.ts";

export type PaidGate = (db: Db, lang: Language) => Promise<ErrorAnswer | null>;

/** The first refusal of any gate, or null. */
export async function paidRefusal(gates: readonly PaidGate[], db: Db, lang: Language): Promise<ErrorAnswer | null> {
  for (const gate of gates) {
    const refusal = await gate(db, lang);
    if (refusal) return refusal;
  }
  return null;
}
