// The landing script's rules for the 18+ box (islands/enhance/auth-rules.ts): the button waits
// for the tick, the live message is the server's own, and the JSON carries `adult: true`; the
// optional interests and languages (issue 24) under the server's rules.
import { describe, expect, test } from "bun:test";
import { rules } from "../../islands/enhance/auth-rules.ts";
import { adultField } from "../../src/auth/model.ts";
import { INTEREST_RULE, MAX_INTERESTS, MAX_LANGUAGES } from "../../src/users/values.ts";

const registerValues = { username: "dana_29", email: "dana@example.com", password: "correct horse", confirmPassword: "correct horse", name: "Dana", gender: "female", age: "29", country_code: "PL", country_name: "Poland" };

describe("the 18+ box with JavaScript on", () => {
  test("Enter Chat waits for both a gender and the tick", () => {
    expect(rules.guest.ready({ gender: "male" })).toBe(false);
    expect(rules.guest.ready({ adult: "on" })).toBe(false);
    expect(rules.guest.ready({ gender: "male", adult: "on" })).toBe(true);
  });

  test("Sign Up waits for the tick once everything else is filled", () => {
    expect(rules.register.ready(registerValues)).toBe(false);
    expect(rules.register.ready({ ...registerValues, adult: "on" })).toBe(true);
  });

  test("an unticked box gets the same message the server gives", () => {
    const serverMessage = String(adultField.error);
    expect(rules.guest.check({ gender: "female" }).adult).toBe(serverMessage);
    expect(rules.register.check(registerValues).adult).toBe(serverMessage);
    expect(rules.guest.check({ gender: "female", adult: "on" })).toEqual({});
    expect(rules.register.check({ ...registerValues, adult: "on" })).toEqual({});
  });

  test("the JSON sent to the API says adult: true", () => {
    expect(rules.guest.payload({ gender: "female", adult: "on" })).toEqual({ gender: "female", adult: true });
    expect(rules.register.payload({ ...registerValues, adult: "on" })).toMatchObject({ username: "dana_29", age: 29, adult: true });
  });

  test("logging in needs no box", () => {
    expect(rules.login.required).not.toContain("adult");
    expect(rules.login.ready({ username: "dana_29", password: "x" })).toBe(true);
  });
});

describe("the optional interests and languages with JavaScript on", () => {
  const filled = { ...registerValues, adult: "on" };

  test("the JSON carries interests split at commas (the Arabic one too) and the chosen languages", () => {
    expect(rules.register.payload({ ...filled, interests: "Chess, jazz،  rock climbing ,", languages: "en,de" })).toMatchObject({
      interests: ["Chess", "jazz", "rock climbing"],
      languages: ["en", "de"],
    });
    expect(rules.register.payload(filled)).toMatchObject({ interests: [], languages: [] });
  });

  test("a broken rule or too many get the server's own message, and do not block an empty field", () => {
    expect(rules.register.check({ ...filled, interests: "chess, c++" }).interests).toBe(INTEREST_RULE);
    const eleven = Array.from({ length: MAX_INTERESTS + 1 }, (_, i) => `tag ${i}`).join(", ");
    expect(rules.register.check({ ...filled, interests: eleven }).interests).toBe(`Choose at most ${MAX_INTERESTS} interests`);
    expect(rules.register.check({ ...filled, languages: "en,de,fr,es,it,pt" }).languages).toBe(`Choose at most ${MAX_LANGUAGES} languages`);
    expect(rules.register.check({ ...filled, interests: "chess, Chess, jazz", languages: "en,de" })).toEqual({});
    expect(rules.register.check(filled)).toEqual({});
  });
});
