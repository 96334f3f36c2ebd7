// The server's error texts in the visitor's language. Services keep throwing their English texts
// (the spec's words); the edge that writes an answer (http/error-response.ts, the no-JavaScript
// forms) looks each `error` and `fields` text up among the catalogue's error.* messages by its
// English wording (error-match.ts). `code` is never touched; a text the catalogue does not know
// (developer- and moderator-facing ones) stays English.
import { translator, type Key } from "./catalogue.ts";
import { en } from "./catalogues/en.ts";
import { errorMatcher } from "./error-match.ts";
import type { Strings } from "./format.ts";
import type { Locale } from "./locales.ts";

/** The English error.* messages: what the edge matches, and what the landing script gets to match its own checks. */
export const englishErrors: Strings = Object.fromEntries(Object.entries(en).filter(([key]) => key.startsWith("error.")));
const match = errorMatcher(englishErrors);

/** One English server text in `locale`, or the text itself when the catalogue does not know it. */
export function translateError(text: string, locale: Locale): string {
  if (locale === "en") return text;
  const t = translator(locale);
  return match(text, (key, params) => t(key as Key, params));
}

/** The contract's error body with `error` and each `fields` text translated; every other member as it was. */
export function translateErrorBody(body: Record<string, unknown>, locale: Locale): Record<string, unknown> {
  if (locale === "en") return body;
  const out: Record<string, unknown> = { ...body };
  if (typeof body.error === "string") out.error = translateError(body.error, locale);
  if (typeof body.fields === "object" && body.fields !== null) {
    out.fields = Object.fromEntries(Object.entries(body.fields).map(([k, v]) => [k, typeof v === "string" ? translateError(v, locale) : v]));
  }
  return out;
}
