// The visitor's language over HTTP: pages by the `lang` cookie, the account's locale and
// Accept-Language, <html lang dir>; the footer's GET /lang and Settings' PUT /api/users/locale;
// the server's refusals in the same language with their codes unchanged.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { MAX_INTERESTS } from "../../src/users/values.ts";
import { LANG_SWITCHES_PER_HOUR, LOCALE_CHANGES_PER_HOUR } from "../../src/i18n/routes.ts";
import { makeTestApp, registerUser, type TestApp } from "../support/app.ts";
import { form, setCookie } from "../pages/helpers.ts";

let t: TestApp;
beforeAll(() => {
  t = makeTestApp({ SIGNUP_RATE_LIMIT: "1000" });
});
afterAll(() => t.close());

const page = (path: string, headers: Record<string, string> = {}) => t.call("GET", path, { headers });
const htmlTag = (text: string) => /<html[^>]*>/.exec(text)?.[0] ?? "";
/** Each /lang call from its own address, so the per-address budget is tested only where meant. */
let address = 0;
const lang = (query: string, headers: Record<string, string> = {}) =>
  t.call("GET", `/lang?${query}`, { headers: { "x-forwarded-for": `198.51.100.${++address % 250}`, ...headers } });

describe("pages in the visitor's language", () => {
  test("English by default, with the spec's words and lang=en dir=ltr", async () => {
    const r = await page("/");
    expect(htmlTag(r.text)).toContain('lang="en"');
    expect(htmlTag(r.text)).toContain('dir="ltr"');
    expect(r.text).toContain("Random video chat and private messages with people worldwide");
    expect(r.text).toContain("I am 18 or older and I accept the ");
  });

  test("Accept-Language chooses when there is no cookie", async () => {
    const r = await page("/", { "accept-language": "ja, es-MX;q=0.8, en;q=0.5" });
    expect(htmlTag(r.text)).toContain('lang="es"');
    expect(r.text).toContain("Videochat aleatorio y mensajes privados con gente de todo el mundo");
    expect(r.text).not.toContain("Random video chat and private messages with people worldwide");
  });

  test("the lang cookie wins over Accept-Language", async () => {
    const r = await page("/", { cookie: "lang=de", "accept-language": "es" });
    expect(htmlTag(r.text)).toContain('lang="de"');
    expect(r.text).toContain("Zufälliger Videochat und private Nachrichten mit Menschen weltweit");
  });

  test("Arabic is right to left; Brazilian Portuguese says pt-BR", async () => {
    const ar = await page("/", { cookie: "lang=ar" });
    expect(htmlTag(ar.text)).toContain('lang="ar"');
    expect(htmlTag(ar.text)).toContain('dir="rtl"');
    expect(ar.text).toContain("دردشة فيديو عشوائية ورسائل خاصة مع أشخاص من حول العالم");
    const pt = await page("/", { cookie: "lang=pt" });
    expect(htmlTag(pt.text)).toContain('lang="pt-BR"');
  });

  test("an unknown cookie value falls through to Accept-Language, then English", async () => {
    expect(htmlTag((await page("/", { cookie: "lang=xx", "accept-language": "tr" })).text)).toContain('lang="tr"');
    expect(htmlTag((await page("/", { cookie: "lang=xx" })).text)).toContain('lang="en"');
  });

  test("the page carries its own language's strings for its scripts, and no other language's", async () => {
    const r = await page("/", { cookie: "lang=fr" });
    const strings = /<script type="application\/json" id="i18n-strings">([^<]*)<\/script>/.exec(r.text)?.[1] ?? "";
    const data = JSON.parse(strings) as { locale: string; strings: Record<string, string> };
    expect(data.locale).toBe("fr");
    expect(data.strings["auth.login_failed"]).toBe("Échec de la connexion");
    expect(r.text).not.toContain("Fallo");
    expect(r.text).not.toContain("Anmeldung fehlgeschlagen");
  });

  test("the legal pages stay English with one line in the visitor's language saying the English text binds", async () => {
    const r = await page("/terms", { cookie: "lang=ru" });
    expect(r.text).toContain("обязательной силой обладает английская версия");
    expect(r.text).toContain('<article lang="en" dir="ltr">');
    const en = await page("/terms");
    expect(en.text).not.toContain("legal-binding");
  });

  test("the 404 page speaks the visitor's language", async () => {
    const r = await page("/nowhere-at-all", { cookie: "lang=id" });
    expect(r.status).toBe(404);
    expect(r.text).toContain("Halaman tidak ditemukan");
  });

  test("the offline page the service worker keeps speaks the visitor's language", async () => {
    const r = await page("/offline", { "accept-language": "de" });
    expect(r.status).toBe(200);
    expect(r.text).toContain("<h1>Du bist offline</h1>");
    expect(r.text).toContain("Erneut versuchen");
    expect((await page("/offline")).text).toContain("<h1>You are offline</h1>");
  });

  test("a signed-in visitor's page follows the account's locale when no cookie says otherwise", async () => {
    const me = await registerUser(t);
    expect((await t.call("PUT", "/api/users/locale", { token: me.token, json: { locale: "hi" } })).status).toBe(200);
    const session = `sid=${encodeURIComponent(me.token)}`;
    const chat = await page("/", { cookie: session, "accept-language": "en" });
    expect(htmlTag(chat.text)).toContain('lang="hi"');
    // The island's props carry Hindi strings only.
    expect(chat.text).toContain('"locale":"hi"');
    expect(chat.text).toContain("सेटिंग्स");
    expect(chat.text).not.toContain('"chat.settings":"Settings"');
    // The cookie still wins.
    expect(htmlTag((await page("/", { cookie: `${session}; lang=es` })).text)).toContain('lang="es"');
  });
});

describe("GET /lang (the footer's switcher)", () => {
  test("sets the cookie for a year and sends the visitor back where they were", async () => {
    const r = await lang("to=ar&back=%2Fterms");
    expect(r.status).toBe(303);
    expect(r.headers.get("location")).toBe("/terms");
    const cookie = setCookie(r.headers, "lang") ?? "";
    expect(cookie).toStartWith("lang=ar;");
    expect(cookie).toContain("Max-Age=31536000");
    expect(cookie).toContain("SameSite=Lax");
  });

  test("never sends anyone to another site, and ignores an unknown language", async () => {
    for (const back of ["//evil.example/", "https://evil.example/", "/\\evil.example", "javascript:alert(1)"]) {
      expect((await lang(`to=es&back=${encodeURIComponent(back)}`)).headers.get("location")).toBe("/");
    }
    const unknown = await lang("to=klingon&back=%2F");
    expect(unknown.status).toBe(303);
    expect(setCookie(unknown.headers, "lang")).toBeUndefined();
  });

  test(`answers 429 past ${LANG_SWITCHES_PER_HOUR} switches an hour from one address`, async () => {
    const from = { "x-forwarded-for": "203.0.113.77" };
    const app = makeTestApp({ TRUST_PROXY: "1" });
    try {
      for (let i = 0; i < LANG_SWITCHES_PER_HOUR; i++) expect((await app.call("GET", "/lang?to=es", { headers: from })).status).toBe(303);
      const refused = await app.call("GET", "/lang?to=es", { headers: from });
      expect(refused.status).toBe(429);
      expect(refused.body.code).toBe("rate_limited");
      expect(refused.headers.get("retry-after")).toBeTruthy();
    } finally {
      await app.close();
    }
  });
});

describe("PUT /api/users/locale (Settings)", () => {
  test("saves the locale on the account, answers the own record and sets the cookie", async () => {
    const me = await registerUser(t);
    expect((await t.call("GET", "/api/auth/me", { token: me.token })).body.user.locale).toBeNull();
    const r = await t.call("PUT", "/api/users/locale", { token: me.token, json: { locale: "tr" } });
    expect(r.status).toBe(200);
    expect(r.body.user).toMatchObject({ id: me.user.id, locale: "tr" });
    expect(setCookie(r.headers, "lang")).toStartWith("lang=tr;");
    expect((await t.call("GET", "/api/auth/me", { token: me.token })).body.user.locale).toBe("tr");
  });

  test("refuses an unknown language with 400 validation, and a caller without a session", async () => {
    const me = await registerUser(t);
    for (const bad of ["xx", "EN", "", 5, null]) {
      const r = await t.call("PUT", "/api/users/locale", { token: me.token, json: { locale: bad } });
      expect(r.status).toBe(400);
      expect(r.body.code).toBe("validation");
    }
    expect((await t.call("PUT", "/api/users/locale", { json: { locale: "es" } })).status).toBe(401);
  });

  test(`answers 429 past ${LOCALE_CHANGES_PER_HOUR} changes an hour`, async () => {
    const me = await registerUser(t);
    for (let i = 0; i < LOCALE_CHANGES_PER_HOUR; i++) {
      expect((await t.call("PUT", "/api/users/locale", { token: me.token, json: { locale: i % 2 ? "es" : "fr" } })).status).toBe(200);
    }
    const refused = await t.call("PUT", "/api/users/locale", { token: me.token, json: { locale: "de" } });
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe("rate_limited");
  });

  test("a body past its 1 KB rule is refused before it is read", async () => {
    const me = await registerUser(t);
    const r = await t.call("PUT", "/api/users/locale", { token: me.token, json: { locale: "es", pad: "x".repeat(2048) } });
    expect(r.status).toBe(413);
  });
});

describe("the server's refusals in the visitor's language", () => {
  test("error and fields are translated; code stays the same", async () => {
    const r = await t.call("POST", "/api/auth/register", {
      headers: { "accept-language": "es" },
      json: { username: "ab", email: "nope", password: "short", name: "X", gender: "female", age: 30, country_code: "DE", adult: false },
    });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe("validation");
    expect(r.body.fields.email).toBe("Escribe un correo electrónico válido");
    expect(r.body.fields.password).toBe("La contraseña debe tener entre 8 y 128 caracteres");
    expect(r.body.fields.adult).toBe("Confirma que tienes 18 años o más y que aceptas las Condiciones");
  });

  test("the same refusal in English keeps the spec's words", async () => {
    const r = await t.call("POST", "/api/auth/login", { json: { username: "nobody_here", password: "wrong password" } });
    expect(r.status).toBe(401);
    expect(r.body).toMatchObject({ code: "invalid_credentials", error: "Invalid username or password" });
  });

  test("the cookie decides for API answers too, and a sentence with a part in it is matched", async () => {
    const wrong = await t.call("POST", "/api/auth/login", { headers: { cookie: "lang=ru" }, json: { username: "nobody_here", password: "wrong password" } });
    expect(wrong.body).toMatchObject({ code: "invalid_credentials", error: "Неверное имя пользователя или пароль" });
    const reserved = await t.call("POST", "/api/auth/register", {
      headers: { cookie: "lang=de" },
      json: { username: "Support_Team", email: "s@example.com", password: "correct horse", name: "Ok Name", gender: "female", age: 30, country_code: "DE", adult: true },
    });
    expect(reserved.body.code).toBe("validation");
    expect(reserved.body.fields.username).toBe("Benutzernamen dürfen „support“ nicht enthalten. Bitte wähle einen anderen");
  });

  test("interests and languages refusals, with their counts in the language's plural form", async () => {
    const me = await registerUser(t, { username: "plural_ru" });
    const save = (json: Record<string, unknown>) => t.call("PUT", "/api/users/profile", { token: me.token, headers: { "accept-language": "ru" }, json: { name: "Someone", ...json } });
    const many = await save({ interests: Array.from({ length: MAX_INTERESTS + 1 }, (_, i) => `tag ${i}`) });
    expect(many.status).toBe(400);
    expect(many.body.fields.interests).toBe(`Выбери не больше ${MAX_INTERESTS} интересов`);
    const unknown = await save({ languages: ["xx"] });
    expect(unknown.body.fields.languages).toBe("Выбери языки из списка (коды ISO 639-1)");
  });

  test("401 and 404 answers in Arabic", async () => {
    const r = await t.call("GET", "/api/auth/me", { headers: { "accept-language": "ar" } });
    expect(r.status).toBe(401);
    expect(r.body.code).toBe("unauthorized");
    expect(r.body.error).toMatch(/[\u0600-\u06FF]/);
  });

  test("a no-JavaScript form post answers with the page and its errors in the visitor's language", async () => {
    const r = await form(t, "/auth/login", { username: "nobody_here", password: "wrong password" }, { cookie: "lang=fr", origin: "http://localhost" });
    expect(r.status).toBe(401);
    expect(r.text).toContain("Nom d’utilisateur ou mot de passe incorrect");
    expect(htmlTag(r.text)).toContain('lang="fr"');
  });
});
