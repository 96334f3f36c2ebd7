// Sessions end after SESSION_TTL_DAYS (default 30) without use (API.md "General"): an unused token
// is refused on HTTP and on /ws, and expired rows are swept.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startSessionSweep, sweepExpiredSessions } from "../../src/auth/sessions.ts";
import { makeTestApp, registerUser, type TestApp } from "../support/app.ts";
import { refusedUpgrade, socketPath } from "../support/raw-ws.ts";
import { afterTimers, until } from "../support/until.ts";

const DAY = 86_400_000;
let t: TestApp;
let port: number;
beforeAll(() => {
  t = makeTestApp();
  port = t.listen().port;
});
afterAll(() => t.close());

const sessionId = (token: string) => token.slice(0, token.indexOf("."));
const lastUsed = (token: string, at: number) => t.ctx.sqlite.run("UPDATE sessions SET last_used_at = ? WHERE id = ?", [at, sessionId(token)]);
const rowCount = (token: string) => t.ctx.sqlite.query("SELECT count(*) AS n FROM sessions WHERE id = ?").get(sessionId(token)) as { n: number };

describe("session expiry", () => {
  test("a token unused for more than 30 days answers 401 and its row is gone", async () => {
    const { token } = await registerUser(t);
    lastUsed(token, Date.now() - 30 * DAY - 60_000);
    const r = await t.call("GET", "/api/auth/me", { token });
    expect(r.status).toBe(401);
    expect(r.body.code).toBe("unauthorized");
    expect(rowCount(token).n).toBe(0);
  });

  test("a token used within 30 days still works, and using it starts the 30 days again", async () => {
    const { token } = await registerUser(t);
    lastUsed(token, Date.now() - 29 * DAY);
    expect((await t.call("GET", "/api/auth/me", { token })).status).toBe(200);
    const row = t.ctx.sqlite.query("SELECT last_used_at AS at FROM sessions WHERE id = ?").get(sessionId(token)) as { at: number };
    expect(row.at).toBeGreaterThan(Date.now() - 60_000);
  });

  test("a request writes the session's use at most once a minute, and a logout still refuses the very next request", async () => {
    const { token } = await registerUser(t);
    const at = () => (t.ctx.sqlite.query("SELECT last_used_at AS at FROM sessions WHERE id = ?").get(sessionId(token)) as { at: number }).at;
    const recent = Date.now() - 30_000;
    lastUsed(token, recent);
    expect((await t.call("GET", "/api/auth/me", { token })).status).toBe(200);
    expect(at()).toBe(recent);
    lastUsed(token, Date.now() - 61_000);
    expect((await t.call("GET", "/api/auth/me", { token })).status).toBe(200);
    expect(at()).toBeGreaterThan(Date.now() - 5_000);
    expect((await t.call("POST", "/api/auth/logout", { token })).status).toBeLessThan(300);
    expect((await t.call("GET", "/api/auth/me", { token })).status).toBe(401);
  });

  test("the socket refuses an expired token", async () => {
    const { token } = await registerUser(t);
    lastUsed(token, Date.now() - 31 * DAY);
    expect(await refusedUpgrade(port, socketPath(token))).toEqual({ status: 401, body: { code: "unauthorized", error: expect.any(String) } });
    expect(rowCount(token).n).toBe(0);
  });

  test("SESSION_TTL_DAYS sets the days", async () => {
    const local = makeTestApp({ SESSION_TTL_DAYS: "1" });
    try {
      const { token } = await registerUser(local);
      local.ctx.sqlite.run("UPDATE sessions SET last_used_at = ? WHERE id = ?", [Date.now() - DAY - 60_000, sessionId(token)]);
      expect((await local.call("GET", "/api/auth/me", { token })).status).toBe(401);
    } finally {
      await local.close();
    }
  });

  test("the sweep deletes expired rows and keeps live ones", async () => {
    const fresh = await registerUser(t);
    const stale = await registerUser(t);
    lastUsed(stale.token, Date.now() - 40 * DAY);
    const removed = await sweepExpiredSessions(t.ctx.db, 30 * DAY, Date.now());
    expect(removed).toBeGreaterThanOrEqual(1);
    expect(rowCount(stale.token).n).toBe(0);
    expect(rowCount(fresh.token).n).toBe(1);
  });

  test("the sweep started with the server runs at once, then every period, and stops when asked", async () => {
    const [first, second, third] = [await registerUser(t), await registerUser(t), await registerUser(t)];
    const stale = (token: string) => lastUsed(token, Date.now() - 40 * DAY);
    stale(first.token);
    const stop = startSessionSweep(t.ctx, 20);
    try {
      // A zero timer runs before the first period's (20 ms): only the sweep at start has run.
      await afterTimers(0);
      expect(rowCount(first.token).n).toBe(0);
      stale(second.token);
      await until(() => rowCount(second.token).n === 0, "the next sweep");
    } finally {
      stop();
    }
    stale(third.token);
    // A timer due after three more periods: a sweep still running would have had its turn by then.
    await afterTimers(60);
    expect(rowCount(third.token).n).toBe(1);
  });
});
