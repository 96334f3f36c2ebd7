// Bans that stick: the device cookie, and new accounts refused from a banned device or, when the
// moderator chose it, a banned address (API.md "Moderation").
import { afterAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { bans, sessions, users } from "../../src/storage/tables.ts";
import { banUser, unbanUser, type Actor } from "../../src/moderation/actions.ts";
import { form, guestEntry, registration, setCookie } from "../pages/helpers.ts";
import { loginAs, makeTestApp, type TestApp } from "../support/app.ts";

const apps: TestApp[] = [];
const app = (env: Record<string, string> = {}) => {
  const made = makeTestApp({ SIGNUP_RATE_LIMIT: "1000", ...env });
  apps.push(made);
  return made;
};
afterAll(async () => {
  for (const made of apps) await made.close();
});
const cli: Actor = { id: null, role: "cli" };
const t = app();
const proxied = app({ TRUST_PROXY: "1" });

/** "did=<id>" from an answer's Set-Cookie. */
const deviceOf = (headers: Headers) => setCookie(headers, "did")?.split(";")[0];

async function guest(on: TestApp, headers: Record<string, string> = {}) {
  return on.call("POST", "/api/guest/create", { json: { gender: "male", adult: true }, headers });
}

describe("the device cookie", () => {
  test("is set on a guest answer when absent: random, httpOnly, SameSite=Lax, for two years", async () => {
    const r = await guest(t);
    expect(r.status).toBe(201);
    const cookie = setCookie(r.headers, "did")!;
    expect(cookie).toMatch(/^did=[\w-]{32}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=63072000$/);
    expect(setCookie(r.headers, "sid")).toBeDefined();
    const again = await guest(t, { cookie: deviceOf(r.headers)! });
    expect(setCookie(again.headers, "did")).toBeUndefined();
  });

  test("is Secure behind an https proxy", async () => {
    const r = await guest(proxied, { "x-forwarded-proto": "https", "x-forwarded-for": "198.51.100.1" });
    expect(setCookie(r.headers, "did")).toEndWith("; Secure");
  });

  test("is recorded with each new session, with a keyed hash of the address and never the address", async () => {
    const r = await guest(proxied, { "x-forwarded-for": "198.51.100.2" });
    const [row] = await proxied.ctx.db.select().from(sessions).where(eq(sessions.userId, r.body.data.user.id)).limit(1);
    if (!row) throw new Error("no session row");
    expect(`did=${row.deviceId}`).toBe(deviceOf(r.headers)!);
    expect(row.addressHash).toMatch(/^[\w-]{43}$/);
    expect(row.addressHash).not.toContain("198.51.100.2");
  });
});

describe("a device ban", () => {
  test("refuses a new guest and a registration from the same cookie with 403 banned, until and appeal_url", async () => {
    const first = await guest(t);
    const device = deviceOf(first.headers)!;
    const row = await banUser(t.ctx, cli, first.body.data.user.id, { days: 30, reason: "Nudity", banAddress: false });
    const again = await guest(t, { cookie: device });
    expect(again.status).toBe(403);
    expect(again.body).toMatchObject({ code: "banned", until: new Date(row.until!).toISOString(), appeal_url: expect.stringMatching(/^\/appeal\//) });
    // Someone sharing the device is not told another person's reason.
    expect(again.body.reason).toBeUndefined();
    const fields = registration();
    const register = await t.call("POST", "/api/auth/register", { json: { ...fields, age: 30, adult: true }, headers: { cookie: device } });
    expect(register.status).toBe(403);
    expect(register.body.code).toBe("banned");
    // Another browser is not refused.
    expect((await guest(t)).status).toBe(201);
  });

  test("is over when the ban is lifted", async () => {
    const first = await guest(t);
    await banUser(t.ctx, cli, first.body.data.user.id, { days: 1, reason: "Spam", banAddress: false });
    await unbanUser(t.ctx, cli, first.body.data.user.id, "Wrong person");
    expect((await guest(t, { cookie: deviceOf(first.headers)! })).status).toBe(201);
  });

  test("covers the browser a banned person signs in from, even a new one", async () => {
    const account = await t.call("POST", "/api/auth/register", { json: { ...registration(), age: 30, adult: true } });
    await banUser(t.ctx, cli, account.body.user.id, { days: null, reason: "Scam", banAddress: false });
    const login = await loginAs(t, account.body.user.username);
    expect(login.status).toBe(403);
    const newDevice = deviceOf(login.headers);
    expect(newDevice).toBeDefined();
    expect((await guest(t, { cookie: newDevice! })).status).toBe(403);
  });

  test("answers the no-JavaScript guest form with 403 and the ban notice", async () => {
    const first = await guest(t);
    await banUser(t.ctx, cli, first.body.data.user.id, { days: null, reason: "Nudity", banAddress: false });
    const r = await form(t, "/auth/guest", guestEntry("male"), { cookie: deviceOf(first.headers)! });
    expect(r.status).toBe(403);
    expect(r.text).toContain("data-ban-notice");
    expect(r.text).toMatch(/href="\/appeal\/\d+\.[\w-]+"/);
    expect(setCookie(r.headers, "sid")).toBeUndefined();
  });
});

describe("an address ban", () => {
  test("refuses a new guest from the same address, and not from another", async () => {
    const first = await guest(proxied, { "x-forwarded-for": "203.0.113.7" });
    await banUser(proxied.ctx, cli, first.body.data.user.id, { days: 1, reason: "Ban evasion", banAddress: true });
    const same = await guest(proxied, { "x-forwarded-for": "203.0.113.7" });
    expect(same.status).toBe(403);
    expect(same.body.code).toBe("banned");
    expect((await guest(proxied, { "x-forwarded-for": "203.0.113.8" })).status).toBe(201);
  });

  test("is not made unless the moderator chose it", async () => {
    const first = await guest(proxied, { "x-forwarded-for": "203.0.113.9" });
    await banUser(proxied.ctx, cli, first.body.data.user.id, { days: 1, reason: "Spam", banAddress: false });
    expect((await guest(proxied, { "x-forwarded-for": "203.0.113.9" })).status).toBe(201);
  });

  test("forgets the address hash when the ban is lifted", async () => {
    const first = await guest(proxied, { "x-forwarded-for": "203.0.113.10" });
    const row = await banUser(proxied.ctx, cli, first.body.data.user.id, { days: 1, reason: "Spam", banAddress: true });
    expect(row.addressHash).not.toBeNull();
    await unbanUser(proxied.ctx, cli, first.body.data.user.id, "Shared address");
    const [stored] = await proxied.ctx.db.select({ address_hash: bans.addressHash }).from(bans).where(eq(bans.id, row.id));
    expect(stored!.address_hash).toBeNull();
    expect((await guest(proxied, { "x-forwarded-for": "203.0.113.10" })).status).toBe(201);
  });
});

describe("a banned login on the no-JavaScript form", () => {
  test("shows the ban notice with the reason and the appeal link under 403", async () => {
    const fields = registration();
    const made = await form(t, "/auth/register", fields);
    expect(made.status).toBe(303);
    const userId = (await t.ctx.db.select({ id: users.id }).from(users).where(eq(users.username, fields.username)))[0]!.id;
    await banUser(t.ctx, cli, userId, { days: 7, reason: "Hate speech", banAddress: false });
    const r = await form(t, "/auth/login", { username: fields.username, password: fields.password });
    expect(r.status).toBe(403);
    expect(r.text).toContain("Reason: Hate speech");
    expect(r.text).toMatch(/href="\/appeal\/\d+\.[\w-]+"/);
  });
});
