// Logout's fallback: when the chat's POST /api/auth/logout fails, the page posts the logout form
// (POST /auth/logout) as a top-level navigation. What the client relies on is checked here: the
// form ends a session the JSON login made, and expires the cookie even when there is no session
// left to end. Its same-origin refusal is in tests/pages/auth-forms.test.ts.
import { afterAll, describe, expect, test } from "bun:test";
import { loginAs, makeTestApp, registerUser } from "../support/app.ts";
import { cookiesOf, setCookie } from "../pages/helpers.ts";

const t = makeTestApp();
afterAll(() => t.close());

async function signedIn() {
  const { user } = await registerUser(t);
  const login = await loginAs(t, user.username);
  expect(login.status).toBe(200);
  return { token: login.body.token as string, cookie: cookiesOf(login.headers) };
}

const postForm = (cookie: string) =>
  t.call("POST", "/auth/logout", { headers: { cookie, origin: "http://localhost", "content-type": "application/x-www-form-urlencoded" } });

describe("the logout form as the chat's fallback", () => {
  test("ends the session of the JSON login: its token stops working and the cookie expires", async () => {
    const { token, cookie } = await signedIn();
    const r = await postForm(cookie);
    expect(r.status).toBe(303);
    expect(r.headers.get("location")).toBe("/");
    expect(setCookie(r.headers, "sid")).toContain("Max-Age=0");
    expect((await t.call("GET", "/api/auth/me", { token })).status).toBe(401);
    expect((await t.call("GET", "/", { headers: { cookie } })).text).toContain('action="/auth/login"');
  });

  test("expires the cookie even when the API logout already ended the session (it then answers 401)", async () => {
    const { token, cookie } = await signedIn();
    expect((await t.call("POST", "/api/auth/logout", { token })).status).toBe(200);
    expect((await t.call("POST", "/api/auth/logout", { token })).status).toBe(401);
    const r = await postForm(cookie);
    expect(r.status).toBe(303);
    expect(setCookie(r.headers, "sid")).toContain("Max-Age=0");
  });

  test("is a POST only: a link to /auth/logout signs nobody out", async () => {
    const { token, cookie } = await signedIn();
    const r = await t.call("GET", "/auth/logout", { headers: { cookie } });
    expect(r.status).not.toBe(303);
    expect(setCookie(r.headers, "sid")).toBeUndefined();
    expect((await t.call("GET", "/api/auth/me", { token })).status).toBe(200);
  });
});
