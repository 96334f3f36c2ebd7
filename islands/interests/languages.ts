// The languages a person may say they speak (ISO 639-1), named in English with their own name
// beside it ("German (Deutsch)") so that people find theirs whatever they read.
import ISO6391 from "iso-639-1";

export interface LanguageOption {
  code: string;
  label: string;
}

let names: Intl.DisplayNames | null = null;
try {
  names = new Intl.DisplayNames(["en"], { type: "language" });
} catch {
  names = null;
}

/** The English name of an ISO 639-1 code ("de" → "German"). */
export function languageName(code: string): string {
  return ISO6391.getName(code) || names?.of(code) || code;
}

function label(code: string): string {
  const english = languageName(code);
  const own = ISO6391.getNativeName(code).split(/[,;]/)[0]?.trim();
  return own && own.toLowerCase() !== english.toLowerCase() ? `${english} (${own})` : english;
}

let options: LanguageOption[] | null = null;

/** Every ISO 639-1 language, by English name. */
export function languageOptions(): LanguageOption[] {
  options ??= ISO6391.getAllCodes()
    .map((code) => ({ code, label: label(code) }))
    .sort((a, b) => a.label.localeCompare(b.label, "en"));
  return options;
}

/** "English, Portuguese": how a list of codes reads. */
export const languageList = (codes: readonly string[]): string => codes.map(languageName).join(", ");
