/**
 * The one folding of German text for comparing it (names, legal forms,
 * cities, search queries): lower case, the German transliteration
 * (ä = ae, ö = oe, ü = ue, ß = ss), other accents dropped. Composed first
 * (NFC), so an umlaut typed as a + combining diaeresis folds as ä does.
 * Punctuation and spacing stay: what a caller splits on is its own rule.
 */
const ASCII = /^[\x00-\x7f]*$/;

export function foldGerman(s: string): string {
  // Plain ASCII (most names) needs only lower case: NFC/NFD and the umlaut and accent rules cannot change it.
  if (ASCII.test(s)) return s.toLowerCase();
  return s
    .normalize("NFC")
    .toLowerCase()
    .replace(/ä/g, "ae")
    .replace(/ö/g, "oe")
    .replace(/ü/g, "ue")
    .replace(/ß/g, "ss")
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "");
}
