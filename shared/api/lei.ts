/**
 * The Legal Entity Identifier (ISO 17442), written once for the client (which
 * checks what users type before anything is sent) and the emulator (which
 * gives companies one). Twenty characters: eighteen letters or digits (since
 * 2017 a four-character prefix of the issuing LOU, "00", twelve for the
 * entity), then two check digits by ISO 7064 MOD 97-10, the scheme of the
 * IBAN. LEIs issued before the structure was fixed (Siemens AG's
 * W38RGI023J3WT1HWRP32) have no "00" in places 5–6 and are still valid, so
 * only the shape and the check digits are checked. No dependencies.
 */

/** Eighteen letters or digits and two check digits, upper case. */
export const LEI_PATTERN = /^[A-Z0-9]{18}[0-9]{2}$/;

/** The remainder modulo 97 of a text of letters and digits read as a number, letters A–Z as 10–35 (ISO 7064 MOD 97-10). */
function mod97(s: string): number {
  let r = 0;
  for (const ch of s) {
    const v = parseInt(ch, 36);
    r = v < 10 ? (r * 10 + v) % 97 : (r * 100 + v) % 97;
  }
  return r;
}

/** The two check digits for the first eighteen characters (upper case). */
export function leiCheckDigits(base: string): string {
  return String(98 - mod97(base + "00")).padStart(2, "0");
}

/** True when the check digits of an LEI (normal form) fit its first eighteen characters. */
export function leiChecksumOk(lei: string): boolean {
  return mod97(lei) === 1;
}

/** The normal form of a typed LEI: blanks removed, upper case ("5299 00d6 …" → "529900D6…"). */
export function normaliseLei(s: string): string {
  return s.replace(/\s+/g, "").toUpperCase();
}

/**
 * What a text is as an LEI: "ok" with its normal form, "checksum" when it has
 * the shape but the check digits do not fit (a typo), "shape" when it is not
 * twenty letters and digits ending in two digits.
 */
export function readLei(s: string): { ok: true; lei: string } | { ok: false; reason: "shape" | "checksum" } {
  const t = normaliseLei(s);
  if (!LEI_PATTERN.test(t)) return { ok: false, reason: "shape" };
  return leiChecksumOk(t) ? { ok: true, lei: t } : { ok: false, reason: "checksum" };
}
