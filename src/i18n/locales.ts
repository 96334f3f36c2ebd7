// The interface languages (API.md "Interests and languages") and how one is chosen for a request:
// the `lang` cookie, else the account's `locale`, else Accept-Language (by q-value), else English.
// Plain data and pure functions: the server and the islands both import this file.
export const LOCALES = ["en", "es", "pt", "ru", "de", "fr", "tr", "id", "hi", "ar"] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = "en";
export const LANG_COOKIE = "lang";
export const LANG_COOKIE_MAX_AGE = 365 * 24 * 60 * 60;

export const isLocale = (value: unknown): value is Locale => typeof value === "string" && (LOCALES as readonly string[]).includes(value);

/** Each language named in itself, for the switchers (never translated). */
export const LOCALE_NAMES: Readonly<Record<Locale, string>> = {
  en: "English",
  es: "Español",
  pt: "Português (Brasil)",
  ru: "Русский",
  de: "Deutsch",
  fr: "Français",
  tr: "Türkçe",
  id: "Bahasa Indonesia",
  hi: "हिन्दी",
  ar: "العربية",
};

/** The BCP 47 tag for Intl and <html lang>: Portuguese is Brazil's. */
export const intlTag = (locale: Locale): string => (locale === "pt" ? "pt-BR" : locale);

export const dirOf = (locale: Locale): "ltr" | "rtl" => (locale === "ar" ? "rtl" : "ltr");

/** A language tag ("pt-BR", "es_419", "AR") to one of ours, or null. */
export function localeOfTag(tag: string): Locale | null {
  const primary = tag.trim().toLowerCase().split(/[-_]/)[0] ?? "";
  return isLocale(primary) ? primary : null;
}

/**
 * The best of ours in an Accept-Language header: highest q first, the header's order among equal
 * q; q=0 means "not this one". At most 32 entries are read (a header is the client's word).
 */
export function fromAcceptLanguage(header: string | null | undefined): Locale | null {
  if (!header) return null;
  const ranges = header.split(",").slice(0, 32).map((part, index) => {
    const [tag = "", ...params] = part.split(";");
    let q = 1;
    for (const param of params) {
      const m = /^\s*q\s*=\s*([0-9.]+)\s*$/i.exec(param);
      if (m) q = Number(m[1]);
    }
    return { locale: localeOfTag(tag), q: Number.isFinite(q) ? Math.min(1, Math.max(0, q)) : 0, index };
  });
  const best = ranges.filter((r) => r.locale !== null && r.q > 0).sort((a, b) => b.q - a.q || a.index - b.index)[0];
  return best?.locale ?? null;
}

export interface LocaleSources {
  cookie?: string | null;
  account?: string | null;
  acceptLanguage?: string | null;
}

/** The contract's order: cookie, account, Accept-Language, English. Unknown values are skipped. */
export function resolveLocale(sources: LocaleSources): Locale {
  if (isLocale(sources.cookie)) return sources.cookie;
  if (isLocale(sources.account)) return sources.account;
  return fromAcceptLanguage(sources.acceptLanguage) ?? DEFAULT_LOCALE;
}
