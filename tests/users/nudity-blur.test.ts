// PUT /api/users/nudity-blur (issue 12): the account's "Blur nudity in video and pictures".
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { NUDITY_BLUR_CHANGES_PER_HOUR } from "../../src/users/index.ts";
import { makeTestApp, registerUser, type TestApp } from "../support/app.ts";

let t: TestApp;
beforeAll(() => {
  t = makeTestApp({ SIGNUP_RATE_LIMIT: "1000" });
});
afterAll(() => t.close());

const setBlur = (token: string | undefined, blur_nudity: unknown) => t.call("PUT", "/api/users/nudity-blur", { token, json: { blur_nudity } });
const meOf = async (token: string) => (await t.call("GET", "/api/auth/me", { token })).body.user;

describe("PUT /api/users/nudity-blur", () => {
  test("is on for a new account, and answers the caller's own user with the new value", async () => {
    const me = await registerUser(t);
    expect((await meOf(me.token)).blur_nudity).toBe(true);
    const off = await setBlur(me.token, false);
    expect(off.status).toBe(200);
    expect(off.body.user).toMatchObject({ id: me.user.id, blur_nudity: false });
    expect(off.body.user.email).toBeString();
    expect((await meOf(me.token)).blur_nudity).toBe(false);
    expect((await setBlur(me.token, true)).body.user.blur_nudity).toBe(true);
    expect((await meOf(me.token)).blur_nudity).toBe(true);
  });

  test("changes only the caller's own account", async () => {
    const me = await registerUser(t);
    const other = await registerUser(t);
    await setBlur(me.token, false);
    expect((await meOf(other.token)).blur_nudity).toBe(true);
    const [row] = await t.sql<{ blur_nudity: number | boolean }>("SELECT blur_nudity FROM users WHERE id = ?", me.user.id);
    // 0 on SQLite, false on PostgreSQL.
    expect(Boolean(row!.blur_nudity)).toBe(false);
  });

  test("refuses anything but true or false, and needs a signed-in caller", async () => {
    const me = await registerUser(t);
    for (const bad of ["false", 0, null, "off"]) {
      const r = await setBlur(me.token, bad);
      expect(r.status).toBe(400);
      expect(r.body.fields.blur_nudity).toBe("blur_nudity must be true or false");
    }
    expect((await t.call("PUT", "/api/users/nudity-blur", { token: me.token, json: {} })).status).toBe(400);
    expect((await meOf(me.token)).blur_nudity).toBe(true);
    expect((await setBlur(undefined, false)).status).toBe(401);
  });

  test(`allows ${NUDITY_BLUR_CHANGES_PER_HOUR} changes an hour per user, then answers 429`, async () => {
    const me = await registerUser(t);
    const other = await registerUser(t);
    for (let i = 0; i < NUDITY_BLUR_CHANGES_PER_HOUR; i++) expect((await setBlur(me.token, i % 2 === 1)).status).toBe(200);
    const refused = await setBlur(me.token, true);
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe("rate_limited");
    expect(refused.headers.get("retry-after")).toBeString();
    expect((await setBlur(other.token, false)).status).toBe(200);
  });
});
