// The languages a person may say they speak (ISO 639-1), named in the page's language with their
// own name beside it ("German (Deutsch)") so that people find theirs whatever they read.
import ISO6391 from "iso-639-1";
import { locale, localeTag, t } from "../i18n.ts";

export interface LanguageOption {
  code: string;
  label: string;
}

const displayNames = new Map<string, Intl.DisplayNames | null>();
function namesIn(tag: string): Intl.DisplayNames | null {
  if (!displayNames.has(tag)) {
    let names: Intl.DisplayNames | null;
    try {
      names = new Intl.DisplayNames([tag], { type: "language" });
    } catch {
      names = null;
    }
    displayNames.set(tag, names);
  }
  return displayNames.get(tag) ?? null;
}

/**
 * The name of an ISO 639-1 code in the page's language ("de" → "German", "Deutsch", "allemand"):
 * English keeps iso-639-1's names; other languages ask Intl.DisplayNames, falling back to English.
 */
export function languageName(code: string): string {
  if (locale() !== "en") {
    const own = namesIn(localeTag())?.of(code);
    if (own && own !== code) return own;
  }
  return ISO6391.getName(code) || namesIn("en")?.of(code) || code;
}

function label(code: string): string {
  const name = languageName(code);
  const own = ISO6391.getNativeName(code).split(/[,;]/)[0]?.trim();
  return own && own.toLowerCase() !== name.toLowerCase() ? `${name} (${own})` : name;
}

const options = new Map<string, LanguageOption[]>();

/** Every ISO 639-1 language, by its name in the page's language. */
export function languageOptions(): LanguageOption[] {
  const tag = localeTag();
  let list = options.get(tag);
  if (!list) {
    list = ISO6391.getAllCodes()
      .map((code) => ({ code, label: label(code) }))
      .sort((a, b) => a.label.localeCompare(b.label, tag));
    options.set(tag, list);
  }
  return list;
}

/** "English, Portuguese": how a list of codes reads. */
export const languageList = (codes: readonly string[]): string => codes.map(languageName).join(t("common.list_separator"));
