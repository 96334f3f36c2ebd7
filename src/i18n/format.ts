// t(): one message of a catalogue with its {placeholders} filled and its plural form chosen by
// Intl.PluralRules. No catalogue is imported here, so an island bundles only this and the strings
// its page passed in (src/i18n/catalogue.ts on the server chooses them).
import { intlTag, type Locale } from "./locales.ts";

/** A message: plain text, or plural forms by Intl.PluralRules category ("other" always). */
export type Message = string | PluralMessage;
export interface PluralMessage {
  zero?: string;
  one?: string;
  two?: string;
  few?: string;
  many?: string;
  other: string;
}
export type Params = Record<string, string | number>;
export type Strings = Readonly<Record<string, Message>>;

const pluralRules = new Map<Locale, Intl.PluralRules>();
function pluralOf(locale: Locale, count: number): Intl.LDMLPluralRule {
  let rules = pluralRules.get(locale);
  if (!rules) pluralRules.set(locale, (rules = new Intl.PluralRules(intlTag(locale))));
  return rules.select(count);
}

const numberFormats = new Map<Locale, Intl.NumberFormat>();
export function formatNumber(locale: Locale, value: number): string {
  let format = numberFormats.get(locale);
  if (!format) numberFormats.set(locale, (format = new Intl.NumberFormat(intlTag(locale))));
  return format.format(value);
}

/** Chooses the plural form for `count` (exact "=0" style forms are not used: "zero" is CLDR's). */
export function pick(message: Message, locale: Locale, count: number | undefined): string {
  if (typeof message === "string") return message;
  const category = count === undefined ? "other" : pluralOf(locale, count);
  return message[category] ?? message.other;
}

/** Fills {name} from params; numbers are written the locale's way; an unknown {name} stays as it is. */
export function fill(text: string, locale: Locale, params?: Params): string {
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const value = params[name];
    if (value === undefined) return whole;
    return typeof value === "number" ? formatNumber(locale, value) : value;
  });
}

export function format(strings: Strings, locale: Locale, key: string, params?: Params): string {
  const message = strings[key];
  if (message === undefined) return key;
  const count = typeof params?.count === "number" ? params.count : undefined;
  return fill(pick(message, locale, count), locale, params);
}
