/**
 * Generated texts end sentences with data (a company name like "Lindner e.K.",
 * a city, a job title); this ends such a sentence with one full stop, never two.
 */
export function sentence(s: string): string {
  const t = s.trimEnd();
  return /[.!?]$/.test(t) ? t : t + ".";
}
