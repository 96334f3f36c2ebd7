// Every catalogue against the English one: the same keys, the same {placeholders}, plural forms
// with "other", no empty text where English has one; and the module's own rules (resolution
// order, Accept-Language q-values, plural categories, numbers).
import { describe, expect, test } from "bun:test";
import { CATALOGUES, islandStrings, translator } from "../../src/i18n/catalogue.ts";
import { en } from "../../src/i18n/catalogues/en.ts";
import { translateError } from "../../src/i18n/errors.ts";
import { format, formatNumber, type Message } from "../../src/i18n/format.ts";
import { MAX_DEVICES } from "../../src/push/store.ts";
import { LOCALES, dirOf, fromAcceptLanguage, intlTag, resolveLocale } from "../../src/i18n/locales.ts";

const placeholders = (message: Message): string[] => {
  const texts = typeof message === "string" ? [message] : Object.values(message).filter((v): v is string => typeof v === "string");
  return [...new Set(texts.flatMap((text) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!)))].sort();
};

describe("the catalogues", () => {
  const englishKeys = Object.keys(en).sort();

  for (const locale of LOCALES) {
    test(`${locale} has exactly English's keys`, () => {
      const keys = Object.keys(CATALOGUES[locale]).sort();
      expect(keys.filter((k) => !englishKeys.includes(k))).toEqual([]);
      expect(englishKeys.filter((k) => !keys.includes(k))).toEqual([]);
    });

    test(`${locale} keeps every placeholder and says something wherever English does`, () => {
      for (const [key, english] of Object.entries(en) as [keyof typeof en, Message][]) {
        const message = CATALOGUES[locale][key];
        // Plural forms may drop {count} where the language words the number ("عامان", two years).
        const wanted = placeholders(english).filter((p) => typeof message === "string" || p !== "count");
        for (const name of wanted) expect({ key, has: placeholders(message).includes(name) }).toEqual({ key, has: true });
        if (typeof message !== "string") expect(typeof message.other).toBe("string");
        if (english !== "") expect({ key, empty: (typeof message === "string" ? message : message.other).trim() === "" }).toEqual({ key, empty: false });
      }
    });
  }

  test("only English leaves the legal notice empty: the English legal text binds", () => {
    expect(en["legal.binding"]).toBe("");
    for (const locale of LOCALES.filter((l) => l !== "en")) expect(translator(locale)("legal.binding").length).toBeGreaterThan(20);
  });

  test("an island gets only its own keys, in one language", () => {
    const strings = islandStrings("es");
    expect(strings["chat.settings"]).toBe("Ajustes");
    expect(strings["landing.h1"]).toBeUndefined();
    expect(strings["error.rate_limited"]).toBeUndefined();
  });
});

describe("choosing the language", () => {
  test("the cookie first, then the account, then Accept-Language, then English", () => {
    expect(resolveLocale({ cookie: "de", account: "fr", acceptLanguage: "es" })).toBe("de");
    expect(resolveLocale({ cookie: null, account: "fr", acceptLanguage: "es" })).toBe("fr");
    expect(resolveLocale({ cookie: null, account: null, acceptLanguage: "es-MX,es;q=0.9" })).toBe("es");
    expect(resolveLocale({})).toBe("en");
  });

  test("an unknown language at any step is skipped, never chosen", () => {
    expect(resolveLocale({ cookie: "xx", account: "ja", acceptLanguage: "ru" })).toBe("ru");
    expect(resolveLocale({ cookie: "<script>", account: null, acceptLanguage: "zh-CN, ja" })).toBe("en");
  });

  test("Accept-Language by q-value, the header's order among equals, q=0 refused", () => {
    expect(fromAcceptLanguage("fr;q=0.3, de;q=0.8, ar;q=0.5")).toBe("de");
    expect(fromAcceptLanguage("ja, pt-BR;q=0.9, es;q=0.9")).toBe("pt");
    expect(fromAcceptLanguage("tr;q=0, id")).toBe("id");
    expect(fromAcceptLanguage("*")).toBeNull();
    expect(fromAcceptLanguage("hi-IN")).toBe("hi");
    // A q the header cannot spell is read as no q at all (1), as browsers never send one.
    expect(fromAcceptLanguage("es;q=abc")).toBe("es");
  });

  test("Arabic is right to left, the rest left to right; Portuguese is Brazil's", () => {
    expect(LOCALES.filter((l) => dirOf(l) === "rtl")).toEqual(["ar"]);
    expect(intlTag("pt")).toBe("pt-BR");
  });
});

describe("t()", () => {
  test("chooses plural forms by Intl.PluralRules", () => {
    const ru = translator("ru");
    expect(ru("chat.age_years", { count: 21 })).toBe("21 год");
    expect(ru("chat.age_years", { count: 23 })).toBe("23 года");
    expect(ru("chat.age_years", { count: 25 })).toBe("25 лет");
    const ar = translator("ar");
    expect(ar("chat.age_years", { count: 2 })).toBe("عامان");
    expect(ar("chat.age_years", { count: 5 })).toBe("5 أعوام");
    expect(ar("chat.age_years", { count: 30 })).toBe("30 عامًا");
    expect(translator("en")("chat.age_years", { count: 18 })).toBe("18 years");
  });

  test("fills placeholders and writes numbers the locale's way", () => {
    expect(translator("en")("landing.f_countries_text", { count: 1250 })).toContain("from 1,250 countries");
    expect(translator("de")("landing.f_countries_text", { count: 1250 })).toContain("1.250 Ländern");
    expect(translator("hi")("flash.guest", { username: "Guest_ab12cd" })).toContain("Guest_ab12cd");
  });

  test("server texts are matched by every plural form and their {count} picks the translation's form", () => {
    // 10 is Arabic's "few" form.
    expect(translateError(`Notifications are already on for ${MAX_DEVICES} devices. Turn them off on one of them first.`, "ar")).toBe(
      `الإشعارات مفعّلة بالفعل على ${formatNumber("ar", MAX_DEVICES)} أجهزة. أوقفها على أحدها أولًا.`,
    );
    expect(translateError("Choose at most 1 interest", "ru")).toBe("Выбери не больше 1 интереса");
    expect(translateError("Choose at most 3 languages", "ru")).toBe("Выбери не больше 3 языков");
    expect(translateError("You can only edit your own messages", "fr")).toBe("Tu ne peux modifier que tes propres messages");
    expect(translateError("A voice message must be Opus audio in WebM or Ogg", "tr")).toBe("Sesli mesaj WebM veya Ogg içinde Opus ses olmalı");
    expect(translateError("A message can be edited for 15 minutes after it was sent", "en")).toBe("A message can be edited for 15 minutes after it was sent");
  });

  test("a missing key shows the key, an unknown placeholder stays as written", () => {
    expect(format({}, "en", "nothing.here")).toBe("nothing.here");
    expect(format({ a: "Hi {who}" }, "en", "a", {})).toBe("Hi {who}");
  });
});
