/** The language of a request to the team server, for the front door (http.ts) and the admin channel (admin/channel.ts). */
import { toLanguage, type Language } from "../shared/i18n/index.ts";

/** ?lang= wins over Accept-Language (its first language); German otherwise, as the API. */
export function languageOf(url: URL, acceptLanguage: string | undefined): Language {
  const q = url.searchParams.get("lang");
  if (q === "de" || q === "en") return q;
  return toLanguage((acceptLanguage ?? "").split(",")[0], "de");
}
