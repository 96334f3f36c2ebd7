// Failed logins (API.md "Rate limits"): a slot is reserved before the slow password hash, so
// concurrency cannot outrun the budget; username and e-mail share one budget per account; 10 from
// one address, 50 from all together; a browser that signed in before is not held back by others.
import { afterEach, describe, expect, test } from "bun:test";
import { addressKey, LoginFailures } from "../../src/auth/login-limit.ts";
import { LocalSliding } from "../../src/cluster/local.ts";
import { makeTestApp, registerUser, type TestApp } from "../support/app.ts";

const apps: TestApp[] = [];
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
});

function app(env: Record<string, string> = {}): TestApp {
  const made = makeTestApp({ TRUST_PROXY: "1", ...env });
  apps.push(made);
  return made;
}

const login = (t: TestApp, username: string, password: string, headers: Record<string, string> = {}) =>
  t.call("POST", "/api/auth/login", { json: { username, password }, headers });

const from = (address: string) => ({ "x-forwarded-for": address });

/** The `did` device cookie a response set. */
function deviceCookie(headers: Headers): string {
  const found = headers.getSetCookie().find((c) => c.startsWith("did="));
  if (!found) throw new Error("no device cookie was set");
  return found.split(";")[0]!;
}

describe("failed logins", () => {
  test("40 concurrent wrong passwords for one account: at most 10 answer 401, the rest 429 with Retry-After", async () => {
    const t = app();
    const { user } = await registerUser(t);
    const answers = await Promise.all(Array.from({ length: 40 }, () => login(t, user.username, "wrong password")));
    const unauthorised = answers.filter((r) => r.status === 401).length;
    const limited = answers.filter((r) => r.status === 429);
    expect(unauthorised).toBeLessThanOrEqual(10);
    expect(unauthorised + limited.length).toBe(40);
    expect(limited[0]?.body.code).toBe("rate_limited");
    expect(Number(limited[0]?.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  test("the username and the e-mail of one account share one budget", async () => {
    const t = app({ LOGIN_FAIL_LIMIT: "4" });
    const { user } = await registerUser(t);
    const email = `${user.username}@example.com`.toUpperCase();
    for (const name of [user.username, email, user.username.toUpperCase(), email]) {
      expect((await login(t, name, "wrong password")).status).toBe(401);
    }
    expect((await login(t, email, "wrong password")).status).toBe(429);
    expect((await login(t, user.username, "correct horse")).status).toBe(429);
  });

  test("one address's failures do not hold back another address until the account's total is spent", async () => {
    const t = app({ LOGIN_FAIL_LIMIT: "2", LOGIN_FAIL_ACCOUNT_LIMIT: "5" });
    const { user } = await registerUser(t);
    for (let i = 0; i < 2; i++) expect((await login(t, user.username, "wrong", from("10.0.0.1"))).status).toBe(401);
    expect((await login(t, user.username, "wrong", from("10.0.0.1"))).status).toBe(429);
    // Another address still has its own budget, and the right password works from it.
    expect((await login(t, user.username, "correct horse", from("10.0.0.2"))).status).toBe(200);
    for (let i = 0; i < 2; i++) expect((await login(t, user.username, "wrong", from("10.0.0.2"))).status).toBe(401);
    expect((await login(t, user.username, "wrong", from("10.0.0.3"))).status).toBe(401);
    // Five failures from all addresses together: a fresh address is held back too.
    const total = await login(t, user.username, "correct horse", from("10.0.0.4"));
    expect(total.status).toBe(429);
    expect(total.body.code).toBe("rate_limited");
    expect(Number(total.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  test("a browser that signed in to the account before is not held back by other addresses' failures", async () => {
    const t = app({ LOGIN_FAIL_LIMIT: "2", LOGIN_FAIL_ACCOUNT_LIMIT: "4" });
    const registered = await t.call("POST", "/api/auth/register", {
      json: { username: "known_kate", email: "kate@example.com", password: "correct horse", name: "Kate", gender: "female", age: 30, country_code: "DE", adult: true },
      headers: from("10.1.0.1"),
    });
    expect(registered.status).toBe(201);
    const kate = deviceCookie(registered.headers);
    for (const address of ["10.9.0.1", "10.9.0.1", "10.9.0.2", "10.9.0.2"]) {
      expect((await login(t, "known_kate", "wrong", from(address))).status).toBe(401);
    }
    // A stranger's browser is held back; Kate's own browser is not, even from a new address.
    expect((await login(t, "known_kate", "correct horse", from("10.1.0.2"))).status).toBe(429);
    expect((await login(t, "known_kate", "correct horse", { ...from("10.1.0.2"), cookie: kate })).status).toBe(200);
    // A made-up device cookie is no key: it never signed in to this account.
    const made = "did=" + "A".repeat(32);
    expect((await login(t, "known_kate", "correct horse", { ...from("10.1.0.3"), cookie: made })).status).toBe(429);
  });

  test("a known browser still has a budget of its own failures", async () => {
    const t = app({ LOGIN_FAIL_LIMIT: "2", LOGIN_FAIL_ACCOUNT_LIMIT: "4" });
    const { user } = await registerUser(t);
    const signedIn = await login(t, user.username, "correct horse");
    const cookie = deviceCookie(signedIn.headers);
    for (let i = 0; i < 2; i++) expect((await login(t, user.username, "wrong", { cookie })).status).toBe(401);
    expect((await login(t, user.username, "correct horse", { cookie })).status).toBe(429);
  });

  test("a successful login gives back the slot it reserved", async () => {
    const t = app({ LOGIN_FAIL_LIMIT: "2" });
    const { user } = await registerUser(t);
    expect((await login(t, user.username, "wrong")).status).toBe(401);
    for (let i = 0; i < 3; i++) expect((await login(t, user.username, "correct horse")).status).toBe(200);
    expect((await login(t, user.username, "wrong")).status).toBe(401);
    expect((await login(t, user.username, "wrong")).status).toBe(429);
  });

  test("an unknown username has a budget too, and answers exactly as a known one", async () => {
    const t = app({ LOGIN_FAIL_LIMIT: "2" });
    const { user } = await registerUser(t);
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 3; i++) {
      known.push((await login(t, user.username, "wrong")).status);
      unknown.push((await login(t, "nobody_at_all", "wrong")).status);
    }
    expect(known).toEqual([401, 401, 429]);
    expect(unknown).toEqual(known);
  });
});

describe("the failure budgets in memory", () => {
  const limits = { perAddress: 2, perAccount: 3, windowMs: 60_000 };
  const attempt = (address: string, account = "user:1") => ({ account, address, knownDevice: null });
  const inMemory = (now: () => number = Date.now, maxKeys?: number) => new LocalSliding(limits.windowMs, now, maxKeys);

  test("a slot comes free when the window has passed, and Retry-After counts down to it", async () => {
    let now = 1_000_000;
    const failures = new LoginFailures(limits, inMemory(() => now));
    expect("release" in (await failures.reserve(attempt("10.0.0.1")))).toBe(true);
    now += 20_000;
    expect("release" in (await failures.reserve(attempt("10.0.0.1")))).toBe(true);
    const held = await failures.reserve(attempt("10.0.0.1"));
    expect(held).toEqual({ retryAfter: 40 });
    now += 40_001;
    expect("release" in (await failures.reserve(attempt("10.0.0.1")))).toBe(true);
  });

  test("addresses of one IPv6 /64 share a budget, and an IPv4-mapped address is its IPv4 one", async () => {
    expect(addressKey("2001:db8:1:2:aaaa::1")).toBe(addressKey("2001:0db8:0001:0002:ffff:ffff:ffff:ffff"));
    expect(addressKey("2001:db8:1:2::1")).not.toBe(addressKey("2001:db8:1:3::1"));
    expect(addressKey("::ffff:192.0.2.7")).toBe("192.0.2.7");
    const failures = new LoginFailures(limits, inMemory());
    await failures.reserve(attempt("2001:db8:1:2::1"));
    await failures.reserve(attempt("2001:db8:1:2::2"));
    expect("retryAfter" in (await failures.reserve(attempt("2001:db8:1:2::3")))).toBe(true);
  });

  test("made-up names cannot grow memory past the cap", async () => {
    const log = inMemory(Date.now, 100);
    const failures = new LoginFailures(limits, log);
    for (let i = 0; i < 1_000; i++) await failures.reserve(attempt(`10.0.${i >> 8}.${i & 255}`, `name:guess_${i}`));
    expect(log.keyCount).toBeLessThanOrEqual(100);
  });

  test("releasing twice gives back one slot only", async () => {
    const failures = new LoginFailures(limits, inMemory());
    const first = await failures.reserve(attempt("10.0.0.9"));
    await failures.reserve(attempt("10.0.0.9"));
    if (!("release" in first)) throw new Error("the first failure should fit");
    await first.release();
    await first.release();
    await failures.reserve(attempt("10.0.0.9"));
    expect("retryAfter" in (await failures.reserve(attempt("10.0.0.9")))).toBe(true);
  });
});
