import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { loginAs, makeTestApp, registerUser, type TestApp } from "../support/app.ts";

let t: TestApp;
beforeAll(() => {
  t = makeTestApp();
});
afterAll(() => t.close());

const valid = (n: string) => ({
  username: n,
  email: `${n}@example.com`,
  password: "password123",
  name: "  Ann Lee  ",
  gender: "female",
  age: 25,
  country_code: "fr",
  country_name: "anything the client says",
  adult: true,
});

describe("register", () => {
  test("creates an account, answers 201 with token and own user, and sets the session cookie", async () => {
    const r = await t.call("POST", "/api/auth/register", { json: valid("ann_1") });
    expect(r.status).toBe(201);
    expect(typeof r.body.token).toBe("string");
    expect(r.body.user).toMatchObject({ username: "ann_1", name: "Ann Lee", email: "ann_1@example.com", gender: "female", age: 25, orientation: "heterosexual", is_guest: false });
    // The server stores its own name for the code, not the client's.
    expect(r.body.user).toMatchObject({ country_code: "FR", country_name: "France", avatar_url: null });
    expect(r.body.user.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(r.body.user.password_hash).toBeUndefined();
    expect(JSON.stringify(r.body)).not.toContain("password123");
    const cookie = r.headers.get("set-cookie") ?? "";
    expect(cookie).toContain(`sid=${encodeURIComponent(r.body.token)}`);
    expect(cookie).toContain("HttpOnly");
    expect(cookie).toContain("SameSite=Lax");
  });

  test("refuses a taken username whatever its case with 409 username_taken", async () => {
    await t.call("POST", "/api/auth/register", { json: valid("Bob_2") });
    const r = await t.call("POST", "/api/auth/register", { json: { ...valid("bob_2"), email: "other@example.com" } });
    expect(r.status).toBe(409);
    expect(r.body.code).toBe("username_taken");
  });

  test("refuses a taken e-mail whatever its case with 409 email_taken", async () => {
    await t.call("POST", "/api/auth/register", { json: valid("carl_3") });
    const r = await t.call("POST", "/api/auth/register", { json: { ...valid("carl_4"), email: "CARL_3@EXAMPLE.COM" } });
    expect(r.status).toBe(409);
    expect(r.body.code).toBe("email_taken");
  });

  test.each([
    ["username too short", { username: "ab" }, "username"],
    ["username too long", { username: "a".repeat(25) }, "username"],
    ["username with a dash", { username: "ab-cd" }, "username"],
    ["bad e-mail", { email: "not-an-email" }, "email"],
    ["e-mail longer than 254", { email: `${"a".repeat(250)}@x.io` }, "email"],
    ["short password", { password: "1234567" }, "password"],
    ["long password", { password: "p".repeat(129) }, "password"],
    ["blank name", { name: "   " }, "name"],
    ["long name", { name: "n".repeat(51) }, "name"],
    ["unknown gender", { gender: "robot" }, "gender"],
    ["age 17", { age: 17 }, "age"],
    ["age 100", { age: 100 }, "age"],
    ["fractional age", { age: 30.5 }, "age"],
    ["age as text", { age: "thirty" }, "age"],
    ["unknown country", { country_code: "XX" }, "country_code"],
    ["missing country", { country_code: undefined }, "country_code"],
    ["unknown orientation", { orientation: "robotic" }, "orientation"],
  ])("refuses %s with 400 and a field message", async (_label, change, field) => {
    const r = await t.call("POST", "/api/auth/register", { json: { ...valid("val_x"), ...change } });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe("validation");
    expect(typeof r.body.error).toBe("string");
    expect(typeof r.body.fields[field]).toBe("string");
  });

  test("accepts the edges: 3 and 24 character usernames, 8 and 128 character passwords, ages 18 and 99", async () => {
    const a = await t.call("POST", "/api/auth/register", { json: { ...valid("abc"), email: "e1@x.io", password: "p".repeat(8), age: 18 } });
    const b = await t.call("POST", "/api/auth/register", { json: { ...valid("z".repeat(24)), email: "e2@x.io", password: "p".repeat(128), age: 99 } });
    expect([a.status, b.status]).toEqual([201, 201]);
  });

  test("stores the optional profile object and returns it in the own and the public user (null when absent)", async () => {
    const profile = { bio: "Hiking and jazz", languages: "fr, en", height_cm: 170, smoker: false, website: null };
    const withProfile = await t.call("POST", "/api/auth/register", { json: { ...valid("prof_1"), profile } });
    expect(withProfile.status).toBe(201);
    expect(withProfile.body.user.profile).toEqual(profile);
    const without = await t.call("POST", "/api/auth/register", { json: valid("prof_2") });
    const nulled = await t.call("POST", "/api/auth/register", { json: { ...valid("prof_3"), profile: null } });
    expect([without.body.user.profile, nulled.body.user.profile]).toEqual([null, null]);
    const me = await t.call("GET", "/api/auth/me", { token: withProfile.body.token });
    expect(me.body.user.profile).toEqual(profile);
    const seen = await t.call("GET", `/api/users/${withProfile.body.user.id}`, { token: without.body.token });
    expect(seen.body.user.profile).toEqual(profile);
  });

  test.each([
    ["an array", [1, 2]],
    ["text", "about me"],
    ["a number", 7],
    ["a nested object", { address: { city: "Paris" } }],
    ["a list value", { tags: ["a"] }],
    ["21 keys", Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, i]))],
    ["more than 2 KB", { bio: "x".repeat(2100) }],
    ["2 KB of multi-byte text", { bio: "é".repeat(1100) }],
  ])("refuses a profile that is %s with 400 on fields.profile", async (_label, profile) => {
    const r = await t.call("POST", "/api/auth/register", { json: { ...valid("prof_bad"), profile } });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe("validation");
    expect(r.body.fields.profile).toBeString();
    expect((await t.call("POST", "/api/auth/login", { json: { username: "prof_bad", password: "password123" } })).status).toBe(401);
  });

  test.each([
    ["malformed JSON", "{bad json"],
    ["a JSON array", "[1,2]"],
    ["a JSON string", '"hello"'],
    ["null", "null"],
    ["an empty body", ""],
  ])("answers %s with 400, never 500", async (_label, raw) => {
    const r = await t.call("POST", "/api/auth/register", { json: raw });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe("validation");
  });
});

describe("login", () => {
  test("logs in by username in any case or by e-mail", async () => {
    await t.call("POST", "/api/auth/register", { json: valid("dora_5") });
    const byName = await t.call("POST", "/api/auth/login", { json: { username: "DORA_5", password: "password123" } });
    const byMail = await t.call("POST", "/api/auth/login", { json: { username: "dora_5@example.com", password: "password123" } });
    expect(byName.status).toBe(200);
    expect(byName.body.user.username).toBe("dora_5");
    expect(byMail.status).toBe(200);
    const emailField = await t.call("POST", "/api/auth/login", { json: { email: "Dora_5@example.com", password: "password123" } });
    expect(emailField.status).toBe(200);
    expect(byName.body.token).not.toBe(byMail.body.token);
  });

  test("answers a wrong password and an unknown user alike: 401 invalid_credentials with the same text", async () => {
    await t.call("POST", "/api/auth/register", { json: valid("eve_6") });
    const wrong = await t.call("POST", "/api/auth/login", { json: { username: "eve_6", password: "nope-nope" } });
    const unknown = await t.call("POST", "/api/auth/login", { json: { username: "nobody_here", password: "nope-nope" } });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual(unknown.body);
    expect(wrong.body.code).toBe("invalid_credentials");
  });

  test("refuses an empty username or password with 400", async () => {
    const r = await t.call("POST", "/api/auth/login", { json: { username: "", password: "" } });
    expect(r.status).toBe(400);
    expect(Object.keys(r.body.fields).sort()).toEqual(["password", "username"]);
  });

  test("locks a username after 10 failures in the window, even for the right password, with Retry-After", async () => {
    const local = makeTestApp();
    try {
      await local.call("POST", "/api/auth/register", { json: valid("frank_7") });
      for (let i = 0; i < 10; i++) {
        const r = await local.call("POST", "/api/auth/login", { json: { username: "frank_7", password: "wrong-pass" } });
        expect(r.status).toBe(401);
      }
      const locked = await local.call("POST", "/api/auth/login", { json: { username: "FRANK_7", password: "password123" } });
      expect(locked.status).toBe(429);
      expect(locked.body.code).toBe("rate_limited");
      expect(Number(locked.headers.get("retry-after"))).toBeGreaterThan(0);
      // Another username from the same address is not locked out.
      await local.call("POST", "/api/auth/register", { json: valid("gina_8") });
      const other = await local.call("POST", "/api/auth/login", { json: { username: "gina_8", password: "password123" } });
      expect(other.status).toBe(200);
    } finally {
      await local.close();
    }
  });
});

describe("guests", () => {
  test("creates a guest with a generated Guest_ username and the chosen gender", async () => {
    const r = await t.call("POST", "/api/guest/create", { json: { gender: "male", adult: true } });
    expect(r.status).toBe(201);
    expect(r.body.success).toBe(true);
    expect(r.body.data.user.username).toMatch(/^Guest_[a-z0-9]{6}$/);
    expect(r.body.data.user).toMatchObject({ gender: "male", is_guest: true, email: null });
    const me = await t.call("GET", "/api/auth/me", { token: r.body.data.token });
    expect(me.body.user.id).toBe(r.body.data.user.id);
  });

  test.each([[{ gender: "other" }], [{}], [{ gender: 1 }]])("refuses a guest gender other than male or female: %j", async (body) => {
    const r = await t.call("POST", "/api/guest/create", { json: body });
    expect(r.status).toBe(400);
    expect(r.body.fields.gender).toBeString();
  });

  test("limits registrations and guest entries per address, each with its own budget", async () => {
    const local = makeTestApp({ SIGNUP_RATE_LIMIT: "3" });
    try {
      for (let i = 0; i < 3; i++) expect((await local.call("POST", "/api/guest/create", { json: { gender: "female", adult: true } })).status).toBe(201);
      const guest = await local.call("POST", "/api/guest/create", { json: { gender: "male", adult: true } });
      expect(guest.status).toBe(429);
      expect(guest.body.code).toBe("rate_limited");
      expect(guest.headers.get("retry-after")).toBeTruthy();
      for (let i = 0; i < 3; i++) expect((await local.call("POST", "/api/auth/register", { json: { ...valid(`hank_${i}`), email: `h${i}@x.io` } })).status).toBe(201);
      const refused = await local.call("POST", "/api/auth/register", { json: valid("hank_9") });
      expect(refused.status).toBe(429);
      expect(refused.body.code).toBe("rate_limited");
    } finally {
      await local.close();
    }
  });
});

describe("sessions", () => {
  test("GET /api/auth/me answers the own user with e-mail", async () => {
    const { token, user } = await registerUser(t);
    const r = await t.call("GET", "/api/auth/me", { token });
    expect(r.status).toBe(200);
    expect(r.body.user.id).toBe(user.id);
    expect(r.body.user.email).toContain("@example.com");
  });

  test.each([
    ["no token", undefined],
    ["a forged token", "abc.def"],
    ["a token with a wrong signature", "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"],
  ])("answers %s with 401", async (_label, token) => {
    const r = await t.call("GET", "/api/auth/me", { token });
    expect(r.status).toBe(401);
    expect(r.body.code).toBe("unauthorized");
  });

  test("never authorises an /api call by the session cookie alone", async () => {
    const { token } = await registerUser(t);
    const r = await t.call("PUT", "/api/users/profile", { json: { name: "Hijacked" }, headers: { cookie: `sid=${encodeURIComponent(token)}` } });
    expect(r.status).toBe(401);
  });

  test("logout revokes the session: the same token then gets 401, other sessions live on", async () => {
    const { token, user } = await registerUser(t);
    const second = await loginAs(t, user.username);
    const out = await t.call("POST", "/api/auth/logout", { token });
    expect(out.status).toBe(200);
    expect(out.body).toEqual({ success: true });
    expect(out.headers.get("set-cookie")).toContain("Max-Age=0");
    expect((await t.call("GET", "/api/auth/me", { token })).status).toBe(401);
    expect((await t.call("POST", "/api/auth/logout", { token })).status).toBe(401);
    expect((await t.call("GET", "/api/auth/me", { token: second.body.token })).status).toBe(200);
  });

  test("a banned user cannot log in: 403 banned with the end of the ban", async () => {
    const { user } = await registerUser(t);
    const until = Date.now() + 3_600_000;
    await t.sql("UPDATE users SET banned = ?, banned_until = ? WHERE id = ?", true, until, user.id);
    const r = await loginAs(t, user.username);
    expect(r.status).toBe(403);
    expect(r.body).toMatchObject({ code: "banned", until: new Date(until).toISOString() });
  });
});
