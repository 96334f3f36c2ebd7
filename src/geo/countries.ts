// The ISO 3166-1 list (about 250 codes and names) from countries-list. The server stores its own
// name for a code, and the country pickers of every page are filled from this same list.
import { countries as data, getEmojiFlag, type TCountryCode } from "countries-list";

export interface Country {
  code: string;
  name: string;
}

export const countries: readonly Country[] = Object.entries(data)
  .map(([code, info]) => ({ code, name: info.name }))
  .sort((a, b) => a.name.localeCompare(b.name, "en"));

const byCode = new Map(countries.map((c) => [c.code, c]));

export function countryName(code: string): string | undefined {
  return byCode.get(code.toUpperCase())?.name;
}

export function isCountryCode(code: unknown): code is string {
  return typeof code === "string" && /^[A-Za-z]{2}$/.test(code) && byCode.has(code.toUpperCase());
}

export const flagOf = (code: string): string => getEmojiFlag(code.toUpperCase() as TCountryCode);
