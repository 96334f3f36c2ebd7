// Interests and spoken languages at sign-up (issue 24: "edited in Settings and in the registration
// form (optional)"): POST /api/auth/register and the no-JavaScript form take them under the rules of
// API.md "Interests and languages", as PUT /api/users/profile does.
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { loginAs, makeTestApp, registerUser } from "../support/app.ts";
import { form, registration } from "../pages/helpers.ts";
import { SUGGEST_MIN_USES } from "../../src/users/interests.ts";

setDefaultTimeout(20_000);

const t = makeTestApp({ SIGNUP_RATE_LIMIT: "1000" });
afterAll(() => t.close());

const me = async (token: string) => (await t.call("GET", "/api/auth/me", { token })).body.user;
const login = async (username: string, password: string) => (await t.call("POST", "/api/auth/login", { json: { username, password } })).body;

describe("POST /api/auth/register with interests and languages", () => {
  test("keeps them normalised as the profile does, on the own and the public record", async () => {
    const { token, user } = await registerUser(t, { interests: ["  Chess ", "chess", "Rock  Climbing", "чтение"], languages: ["EN", "pt", "en"] });
    expect(await me(token)).toMatchObject({ interests: ["chess", "rock climbing", "чтение"], languages: ["en", "pt"] });
    const viewer = await registerUser(t);
    const seen = await t.call("GET", `/api/users/${user.id}`, { token: viewer.token });
    expect(seen.body.user).toMatchObject({ interests: ["chess", "rock climbing", "чтение"], languages: ["en", "pt"] });
  });

  test("leaves them empty when not sent, or sent empty", async () => {
    expect(await me((await registerUser(t)).token)).toMatchObject({ interests: [], languages: [] });
    expect(await me((await registerUser(t, { interests: [], languages: [] })).token)).toMatchObject({ interests: [], languages: [] });
  });

  test.each([
    [{ interests: ["x"] }, "interests"],
    [{ interests: ["c++"] }, "interests"],
    [{ interests: Array.from({ length: 11 }, (_, i) => `tag ${i}`) }, "interests"],
    [{ interests: "chess" }, "interests"],
    [{ languages: ["xx"] }, "languages"],
    [{ languages: ["en", "de", "fr", "es", "it", "pt"] }, "languages"],
  ])("refuses %j with 400 on %s and makes no account", async (extra, field) => {
    const username = `rl_${field.slice(0, 4)}_${Math.floor(Math.random() * 1e6)}`;
    const body = { username, email: `${username}@example.com`, password: "correct horse", name: "Lister", gender: "female", age: 30, country_code: "DE", adult: true, ...extra };
    const r = await t.call("POST", "/api/auth/register", { json: body });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe("validation");
    expect(r.body.fields[field]).toBeString();
    expect((await loginAs(t, username)).status).toBe(401);
  });

  test(`counts the interests for suggestions: ${SUGGEST_MIN_USES} sign-ups with one make it suggested`, async () => {
    for (let i = 0; i < SUGGEST_MIN_USES; i++) await registerUser(t, { interests: ["paragliding"] });
    const r = await t.call("GET", "/api/interests/suggestions?prefix=paraglid", { token: (await registerUser(t)).token });
    expect(r.status).toBe(200);
    expect(JSON.stringify(r.body)).toContain("paragliding");
  });
});

describe("the register form without JavaScript", () => {
  test("takes interests typed with commas (the Arabic one too) and the languages of a multiple select", async () => {
    const fields = registration({ interests: "Chess, Rock Climbing،  jazz ," });
    const body = new URLSearchParams(fields);
    body.append("languages", "de");
    body.append("languages", "fr");
    const r = await t.call("POST", "/auth/register", { body, headers: { "content-type": "application/x-www-form-urlencoded" } });
    expect(r.status).toBe(303);
    const { user } = await login(fields.username, fields.password);
    expect(user).toMatchObject({ interests: ["chess", "rock climbing", "jazz"], languages: ["de", "fr"] });
  });

  test("without them, the account has none", async () => {
    const fields = registration();
    expect((await form(t, "/auth/register", fields)).status).toBe(303);
    expect((await login(fields.username, fields.password)).user).toMatchObject({ interests: [], languages: [] });
  });

  test("shows the rule next to the field and keeps what was typed and chosen", async () => {
    const fields = registration({ interests: "chess, c++" });
    const body = new URLSearchParams(fields);
    body.append("languages", "pt");
    const r = await t.call("POST", "/auth/register", { body, headers: { "content-type": "application/x-www-form-urlencoded" } });
    expect(r.status).toBe(400);
    expect(r.text).toContain("Each interest is 2 to 24 letters, digits, spaces or hyphens");
    expect(r.text).toMatch(/<details class="register-more" open="">/);
    expect(r.text).toMatch(/id="reg-interests"[^>]*value="chess, c\+\+"/);
    expect(r.text).toMatch(/<option value="pt" selected="">/);
    expect((await t.call("POST", "/api/auth/login", { json: { username: fields.username, password: fields.password } })).status).toBe(401);
  });
});
