import { describe, expect, test } from "bun:test";
import { searchCountries } from "../../islands/lib/country-search.ts";

const list = ["Algeria", "Germany", "Niger", "Nigeria", "Saint Pierre and Miquelon", "United States", "United Kingdom"].map((name, i) => ({
  code: ["DZ", "DE", "NE", "NG", "PM", "US", "GB"][i]!,
  name,
}));
const names = (q: string) => searchCountries(list, q).map((c) => c.name);

describe("country search", () => {
  test("puts names that start with the query before names that merely contain it", () => {
    expect(names("ger")).toEqual(["Germany", "Algeria", "Niger", "Nigeria"]);
  });

  test("ranks the exact code first, then a word that starts with the query", () => {
    expect(names("de")).toEqual(["Germany"]);
    expect(names("pier")).toEqual(["Saint Pierre and Miquelon"]);
    expect(names("KING")).toEqual(["United Kingdom"]);
  });

  test("keeps the list's order within a rank, and everything for an empty query", () => {
    expect(names("united")).toEqual(["United States", "United Kingdom"]);
    expect(names("  ")).toHaveLength(list.length);
    expect(names("zzz")).toEqual([]);
  });
});
