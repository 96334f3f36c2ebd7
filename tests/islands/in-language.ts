// Island component tests in another language: its island strings in place for one body, then
// English back (tests/support/i18n-english.ts sets English for every test file).
import { setStrings } from "../../islands/i18n.ts";
import { CATALOGUES, islandStrings } from "../../src/i18n/catalogue.ts";
import type { Locale } from "../../src/i18n/locales.ts";

export async function inLanguage(locale: Locale, body: () => Promise<void>): Promise<void> {
  setStrings(locale, islandStrings(locale));
  try {
    await body();
  } finally {
    setStrings("en", CATALOGUES.en);
  }
}
