// The country search of every picker (landing page and profile): best matches first, so "ger"
// offers Germany before Algeria and Niger. No imports: the landing page's script uses it too.
export interface NamedCountry {
  code: string;
  name: string;
}

/** 0 the code itself, 1 the name starts with it, 2 a word starts with it, 3 the name contains it. */
function rank(country: NamedCountry, query: string): number {
  const name = country.name.toLowerCase();
  if (country.code.toLowerCase() === query) return 0;
  if (name.startsWith(query)) return 1;
  if (name.split(/[\s,()'-]+/).some((word) => word.startsWith(query))) return 2;
  return name.includes(query) ? 3 : -1;
}

/** The countries matching `query`, best first; within a rank the list keeps its own order. */
export function searchCountries<T extends NamedCountry>(countries: readonly T[], query: string): T[] {
  const q = query.trim().toLowerCase();
  if (!q) return [...countries];
  return countries
    .map((country, index) => ({ country, index, rank: rank(country, q) }))
    .filter((m) => m.rank >= 0)
    .sort((a, b) => a.rank - b.rank || a.index - b.index)
    .map((m) => m.country);
}
