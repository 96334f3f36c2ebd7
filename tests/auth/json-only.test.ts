// Login CSRF (API.md "General"): /api/auth/* and /api/guest/create take JSON bodies only (415
// otherwise) and refuse a foreign Origin (403), so no other site can sign a visitor in or out.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { loginAs, makeTestApp, registerUser, type TestApp } from "../support/app.ts";

let t: TestApp;
let username: string;
beforeAll(async () => {
  t = makeTestApp({ SIGNUP_RATE_LIMIT: "1000", ALLOWED_ORIGINS: "https://friend.example" });
  username = (await registerUser(t)).user.username;
});
afterAll(() => t.close());

const guest = { gender: "female", adult: true };
const registration = (n: string) => ({ username: n, email: `${n}@example.com`, password: "correct horse", name: "Jo", gender: "male", age: 40, country_code: "FR", adult: true });
const noSessionCookie = (headers: Headers) => expect(headers.getSetCookie().some((c) => c.startsWith("sid="))).toBe(false);

describe("the sign-in routes take JSON only", () => {
  test.each([
    ["a form-encoded login", "/api/auth/login", "application/x-www-form-urlencoded", () => `username=${username}&password=correct+horse`],
    ["a multipart login", "/api/auth/login", "multipart/form-data; boundary=xx", () => `--xx\r\nContent-Disposition: form-data; name="username"\r\n\r\n${username}\r\n--xx--\r\n`],
    ["a login as text/plain JSON", "/api/auth/login", "text/plain", () => JSON.stringify({ username, password: "correct horse" })],
    ["a form-encoded guest entry", "/api/guest/create", "application/x-www-form-urlencoded", () => "gender=female&adult=on"],
    ["a guest entry as text/plain JSON", "/api/guest/create", "text/plain;charset=UTF-8", () => JSON.stringify(guest)],
    ["a form-encoded registration", "/api/auth/register", "application/x-www-form-urlencoded", () => "username=form_reg&email=f%40x.io&password=correct+horse"],
  ])("refuses %s with 415 and sets no session cookie", async (_label, path, type, body) => {
    const r = await t.call("POST", path, { body: body(), headers: { "content-type": type } });
    expect(r.status).toBe(415);
    expect(r.body.code).toBe("unsupported_type");
    expect(r.body.error).toContain("JSON");
    noSessionCookie(r.headers);
  });

  test("refuses a login with a body but no content type with 415", async () => {
    const r = await t.call("POST", "/api/auth/login", { body: new Blob([JSON.stringify({ username, password: "correct horse" })]) });
    expect(r.status).toBe(415);
  });

  test("accepts JSON with a charset", async () => {
    const r = await t.call("POST", "/api/auth/login", { json: { username, password: "correct horse" }, headers: { "content-type": "application/json; charset=utf-8" } });
    expect(r.status).toBe(200);
  });

  test("refuses a JSON body larger than 64 KB with 413", async () => {
    const r = await t.call("POST", "/api/auth/login", { json: { username, password: "x".repeat(70_000) } });
    expect(r.status).toBe(413);
    expect(r.body.code).toBe("too_large");
  });

  test("logout without a body still works", async () => {
    const { token } = await registerUser(t);
    expect((await t.call("POST", "/api/auth/logout", { token })).status).toBe(200);
  });
});

describe("the sign-in routes refuse other sites", () => {
  const evil = { origin: "https://evil.example" };

  test.each([
    ["login", "/api/auth/login", () => ({ username, password: "correct horse" })],
    ["guest entry", "/api/guest/create", () => guest],
    ["registration", "/api/auth/register", () => registration("evil_reg")],
  ])("refuses a %s from a foreign Origin with 403 and no session cookie", async (_label, path, json) => {
    const r = await t.call("POST", path, { json: json(), headers: evil });
    expect(r.status).toBe(403);
    expect(r.body.code).toBe("forbidden");
    noSessionCookie(r.headers);
  });

  test("refuses a logout from a foreign Origin and the session lives on", async () => {
    const { token } = await registerUser(t);
    expect((await t.call("POST", "/api/auth/logout", { token, headers: evil })).status).toBe(403);
    expect((await t.call("GET", "/api/auth/me", { token })).status).toBe(200);
  });

  test("accepts the site's own Origin, a listed one, and none at all", async () => {
    for (const origin of ["http://localhost", "https://friend.example"]) {
      const r = await t.call("POST", "/api/guest/create", { json: guest, headers: { origin } });
      expect(r.status).toBe(201);
      expect(r.headers.getSetCookie().some((c) => c.startsWith("sid="))).toBe(true);
    }
    expect((await loginAs(t, username)).status).toBe(200);
  });

  test("a foreign Origin is refused before the password is checked, so it spends no login budget", async () => {
    const local = makeTestApp({ LOGIN_FAIL_LIMIT: "1" });
    try {
      const { user } = await registerUser(local);
      for (let i = 0; i < 3; i++) {
        expect((await local.call("POST", "/api/auth/login", { json: { username: user.username, password: "wrong" }, headers: evil })).status).toBe(403);
      }
      expect((await loginAs(local, user.username)).status).toBe(200);
    } finally {
      await local.close();
    }
  });
});
