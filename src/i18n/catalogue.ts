// The server's side of the catalogues: every language's strings, typed by the English one, so a
// key missing from (or unknown to) another language fails the type-check; tests/i18n checks it
// again at run time. Pages render with `translator(locale)`; an island receives only its own
// strings in its props (`islandStrings`), so a page ships one language and no other.
import { ar } from "./catalogues/ar.ts";
import { de } from "./catalogues/de.ts";
import { en, type Key } from "./catalogues/en.ts";
import { es } from "./catalogues/es.ts";
import { fr } from "./catalogues/fr.ts";
import { hi } from "./catalogues/hi.ts";
import { id } from "./catalogues/id.ts";
import { pt } from "./catalogues/pt.ts";
import { ru } from "./catalogues/ru.ts";
import { tr } from "./catalogues/tr.ts";
import { format, type Message, type Params, type Strings } from "./format.ts";
import type { Locale } from "./locales.ts";

export type { Key };
export type Catalogue = { readonly [K in Key]: Message };

export const CATALOGUES: Readonly<Record<Locale, Catalogue>> = { en, es, pt, ru, de, fr, tr, id, hi, ar };

export type T = (key: Key, params?: Params) => string;

const translators = new Map<Locale, T>();
export function translator(locale: Locale): T {
  let t = translators.get(locale);
  if (!t) {
    const strings: Strings = CATALOGUES[locale];
    translators.set(locale, (t = (key, params) => format(strings, locale, key, params)));
  }
  return t;
}

/** The key prefixes the browser's islands and scripts use; everything else stays on the server. */
export const ISLAND_PREFIXES = ["common.", "chat.", "call.", "roulette.", "safety.", "mod.", "auth.", "lang."] as const;

const islandCache = new Map<Locale, Strings>();
/** The strings an island needs, in one language only. */
export function islandStrings(locale: Locale): Strings {
  let strings = islandCache.get(locale);
  if (!strings) {
    const all: Strings = CATALOGUES[locale];
    strings = Object.fromEntries(Object.entries(all).filter(([key]) => ISLAND_PREFIXES.some((p) => key.startsWith(p))));
    islandCache.set(locale, strings);
  }
  return strings;
}

/** The strings of a page's own scripts (no React there): those under `prefixes`, in one language. */
export function pageStrings(locale: Locale, prefixes: readonly string[]): Strings {
  const all: Strings = CATALOGUES[locale];
  return Object.fromEntries(Object.entries(all).filter(([key]) => prefixes.some((p) => key.startsWith(p))));
}
