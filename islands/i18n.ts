// The islands' t(): the strings the page passed in (ChatAppProps.i18n, or the page's
// <script id="i18n-strings"> for the landing scripts), in that one language. No catalogue is
// imported here, so a page's JavaScript carries no other language's words. The server renders an
// island synchronously after setting its strings (renderToString), so one module-level choice is
// safe there too.
import { errorMatcher } from "../src/i18n/error-match.ts";
import { format, formatNumber, type Params, type Strings } from "../src/i18n/format.ts";
import { DEFAULT_LOCALE, dirOf, intlTag, isLocale, type Locale } from "../src/i18n/locales.ts";
import type { Key } from "../src/i18n/catalogues/en.ts";

let current: { locale: Locale; strings: Strings } = { locale: DEFAULT_LOCALE, strings: {} };
let serverText: ((text: string) => string) | null = null;

/** `englishErrors`: the server's English error texts, so texts made in the browser by the server's own rules can be matched. */
export function setStrings(locale: Locale, strings: Strings, englishErrors?: Strings): void {
  current = { locale, strings };
  const match = englishErrors && locale !== DEFAULT_LOCALE ? errorMatcher(englishErrors) : null;
  serverText = match ? (text) => match(text, (key, params) => format(strings, locale, key, params)) : null;
}

/**
 * Runs `render` with these strings and puts the earlier ones back: the server renders an island
 * for one request and must not leave that request's language behind for the next.
 */
export function withStrings<T>(locale: Locale, strings: Strings, render: () => T): T {
  const before = current;
  const beforeServerText = serverText;
  setStrings(locale, strings);
  try {
    return render();
  } finally {
    current = before;
    serverText = beforeServerText;
  }
}

/** An English text of the server's rules (src/users/names) in this page's language, when known. */
export const translateServerText = (text: string): string => (serverText ? serverText(text) : text);

/** The landing page's scripts: the strings the server wrote into the page, if any. */
export function readPageStrings(doc: Document = document): void {
  const el = doc.getElementById("i18n-strings");
  if (!el?.textContent) return;
  try {
    const data = JSON.parse(el.textContent) as { locale?: unknown; strings?: Strings; englishErrors?: Strings };
    if (isLocale(data.locale) && data.strings) setStrings(data.locale, data.strings, data.englishErrors);
  } catch {
    // A broken script element leaves the keys showing rather than breaking the page.
  }
}

export const t = (key: Key, params?: Params): string => format(current.strings, current.locale, key, params);
export const locale = (): Locale => current.locale;
/** For Intl: "pt-BR" for Brazilian Portuguese. */
export const localeTag = (): string => intlTag(current.locale);
export const dir = (): "ltr" | "rtl" => dirOf(current.locale);
export const number = (value: number): string => formatNumber(current.locale, value);
