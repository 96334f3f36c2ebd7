// Country names in the page's language: the server sends English names (the spec's list), so other
// languages ask Intl.DisplayNames for the code, falling back to the English name it does not know.
import { locale, localeTag } from "../i18n.ts";

const namers = new Map<string, Intl.DisplayNames | null>();

function namer(tag: string): Intl.DisplayNames | null {
  if (!namers.has(tag)) {
    let names: Intl.DisplayNames | null = null;
    try {
      names = typeof Intl.DisplayNames === "function" ? new Intl.DisplayNames([tag], { type: "region", fallback: "none" }) : null;
    } catch {
      names = null;
    }
    namers.set(tag, names);
  }
  return namers.get(tag) ?? null;
}

export function countryName(code: string | null | undefined, english: string): string {
  if (locale() === "en" || !code) return english;
  try {
    return namer(localeTag())?.of(code.toUpperCase()) ?? english;
  } catch {
    return english;
  }
}
