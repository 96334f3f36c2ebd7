import { describe, expect, test } from "bun:test";
import { badgeText, chatTimeLabel, countriesForList, countryLabel, fileSizeKb, flagEmoji, initial, longDate, previewText, relativeTime } from "../../islands/lib/format.ts";
import { withStrings } from "../../islands/i18n.ts";
import { CATALOGUES } from "../../src/i18n/catalogue.ts";

// Local times: the labels follow the reader's clock, so the tests build local dates too.
const at = (y: number, mo: number, d: number, h = 12, mi = 0) => new Date(y, mo - 1, d, h, mi);
const now = at(2026, 11, 22, 15, 30); // a Sunday

describe("chat list time label", () => {
  test("shows HH:MM for today, from midnight on", () => {
    expect(chatTimeLabel(at(2026, 11, 22, 0, 0), now)).toBe("00:00");
    expect(chatTimeLabel(at(2026, 11, 22, 9, 5), now)).toBe("09:05");
  });

  test("shows the two-letter weekday for the six days before today", () => {
    expect(chatTimeLabel(at(2026, 11, 21, 23, 59), now)).toBe("Sa");
    expect(chatTimeLabel(at(2026, 11, 16, 0, 0), now)).toBe("Mo");
  });

  test("shows DD.MM earlier this year, a week ago included", () => {
    expect(chatTimeLabel(at(2026, 11, 15, 23, 59), now)).toBe("15.11");
    expect(chatTimeLabel(at(2026, 1, 1, 0, 0), now)).toBe("01.01");
  });

  test("shows DD.MM.YYYY for earlier years", () => {
    expect(chatTimeLabel(at(2025, 12, 31, 23, 59), now)).toBe("31.12.2025");
  });

  test("a new year's first days still use weekdays across the year boundary", () => {
    expect(chatTimeLabel(at(2026, 12, 31, 20, 0), at(2027, 1, 2, 9, 0))).toBe("Th");
  });

  test("an unreadable date gives no label", () => {
    expect(chatTimeLabel("not a date", now)).toBe("");
    expect(chatTimeLabel(null, now)).toBe("");
  });
});

describe("texts", () => {
  test("cuts the preview at 50 characters with an ellipsis", () => {
    expect(previewText("a".repeat(50))).toBe("a".repeat(50));
    expect(previewText("a".repeat(51))).toBe(`${"a".repeat(50)}...`);
    expect(previewText("line one\nline two")).toBe("line one line two");
  });

  test("counts emoji as one character each when cutting", () => {
    expect(previewText("😀".repeat(51))).toBe(`${"😀".repeat(50)}...`);
  });

  test("badge reads 99+ above 99 and nothing at zero", () => {
    expect(badgeText(0)).toBe("");
    expect(badgeText(1)).toBe("1");
    expect(badgeText(99)).toBe("99");
    expect(badgeText(100)).toBe("99+");
  });

  test("sizes are KB with one decimal", () => {
    expect(fileSizeKb(1536)).toBe("1.5 KB");
    expect(fileSizeKb(100)).toBe("0.1 KB");
    expect(fileSizeKb(null)).toBe("0.0 KB");
  });

  test("relative times read like 'about 2 hours ago'; bad dates read 'now'", () => {
    expect(relativeTime(new Date(Date.now() - 2 * 3600_000).toISOString())).toBe("about 2 hours ago");
    expect(relativeTime("garbage")).toBe("now");
    expect(relativeTime(undefined)).toBe("now");
  });

  test("member since is a long US-English date", () => {
    expect(longDate("2026-11-22T12:00:00.000Z")).toBe("November 22, 2026");
  });

  test("flags and initials", () => {
    expect(flagEmoji("de")).toBe("🇩🇪");
    expect(flagEmoji("x")).toBe("");
    expect(initial(" ana")).toBe("A");
    expect(initial("")).toBe("?");
  });
});

describe("in another language", () => {
  test("file sizes use the locale's decimal mark and unit; English keeps the spec's form", () => {
    expect(fileSizeKb(1536)).toBe("1.5 KB");
    expect(withStrings("de", CATALOGUES.de, () => fileSizeKb(1536))).toBe("1,5 KB");
    expect(withStrings("ru", CATALOGUES.ru, () => fileSizeKb(1536))).toBe("1,5 КБ");
  });

  test("country names come from Intl in the page's language; English and unknown codes keep the given name", () => {
    expect(countryLabel("DE", "Germany")).toBe("Germany");
    expect(withStrings("es", CATALOGUES.es, () => countryLabel("DE", "Germany"))).toBe("Alemania");
    expect(withStrings("fr", CATALOGUES.fr, () => countryLabel("de", "Germany"))).toBe("Allemagne");
    expect(withStrings("es", CATALOGUES.es, () => countryLabel(null, "Somewhere"))).toBe("Somewhere");
  });

  test("a country list is labelled and sorted in the page's language, and keeps the English name the search filters by", () => {
    const countries = [{ code: "DE", name: "Germany" }, { code: "AT", name: "Austria" }, { code: "EG", name: "Egypt" }];
    expect(countriesForList(countries).map((c) => c.label)).toEqual(["Germany", "Austria", "Egypt"]);
    const spanish = withStrings("es", CATALOGUES.es, () => countriesForList(countries));
    expect(spanish.map((c) => [c.label, c.name])).toEqual([["Alemania", "Germany"], ["Austria", "Austria"], ["Egipto", "Egypt"]]);
  });
});
