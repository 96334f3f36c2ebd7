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
const lastUsed = (token: string, at: number) => t.sql("UPDATE sessions SET last_used_at = ? WHERE id = ?", at, sessionId(token));
const rowCount = async (token: string) => Number((await t.sql<{ n: number }>("SELECT count(*) AS n FROM sessions WHERE id = ?", sessionId(token)))[0]!.n);
// bigint comes back from postgres.js as a string.
const lastUsedAt = async (token: string) => Number((await t.sql<{ at: number }>("SELECT last_used_at AS at FROM sessions WHERE id = ?", sessionId(token)))[0]!.at);

describe("session expiry", () => {
  test("a token unused for more than 30 days answers 401 and its row is gone", async () => {
    const { token } = await registerUser(t);
    await lastUsed(token, Date.now() - 30 * DAY - 60_000);
    const r = await t.call("GET", "/api/auth/me", { token });
    expect(r.status).toBe(401);
    expect(r.body.code).toBe("unauthorized");
    expect(await rowCount(token)).toBe(0);
  });

  test("a token used within 30 days still works, and using it starts the 30 days again", async () => {
    const { token } = await registerUser(t);
    await lastUsed(token, Date.now() - 29 * DAY);
    expect((await t.call("GET", "/api/auth/me", { token })).status).toBe(200);
    expect(await lastUsedAt(token)).toBeGreaterThan(Date.now() - 60_000);
  });

  test("a request writes the session's use at most once a minute, and a logout still refuses the very next request", async () => {
    const { token } = await registerUser(t);
    const recent = Date.now() - 30_000;
    await lastUsed(token, recent);
    expect((await t.call("GET", "/api/auth/me", { token })).status).toBe(200);
    expect(await lastUsedAt(token)).toBe(recent);
    await lastUsed(token, Date.now() - 61_000);
    expect((await t.call("GET", "/api/auth/me", { token })).status).toBe(200);
    expect(await lastUsedAt(token)).toBeGreaterThan(Date.now() - 5_000);
    expect((await t.call("POST", "/api/auth/logout", { token })).status).toBeLessThan(300);
    expect((await t.call("GET", "/api/auth/me", { token })).status).toBe(401);
  });

  test("the socket refuses an expired token", async () => {
    const { token } = await registerUser(t);
    await lastUsed(token, Date.now() - 31 * DAY);
    expect(await refusedUpgrade(port, socketPath(token))).toEqual({ status: 401, body: { code: "unauthorized", error: expect.any(String) } });
    expect(await rowCount(token)).toBe(0);
  });

  test("SESSION_TTL_DAYS sets the days", async () => {
    const local = makeTestApp({ SESSION_TTL_DAYS: "1" });
    try {
      const { token } = await registerUser(local);
      await local.sql("UPDATE sessions SET last_used_at = ? WHERE id = ?", Date.now() - DAY - 60_000, sessionId(token));
      expect((await local.call("GET", "/api/auth/me", { token })).status).toBe(401);
    } finally {
      await local.close();
    }
  });

  test("the sweep deletes expired rows and keeps live ones", async () => {
    const fresh = await registerUser(t);
    const stale = await registerUser(t);
    await lastUsed(stale.token, Date.now() - 40 * DAY);
    const removed = await sweepExpiredSessions(t.ctx.db, 30 * DAY, Date.now());
    expect(removed).toBeGreaterThanOrEqual(1);
    expect(await rowCount(stale.token)).toBe(0);
    expect(await rowCount(fresh.token)).toBe(1);
  });

  test("the sweep started with the server runs at once, then every period, and stops when asked", async () => {
    const [first, second, third, fourth] = [await registerUser(t), await registerUser(t), await registerUser(t), await registerUser(t)];
    const stale = (token: string) => lastUsed(token, Date.now() - 40 * DAY);
    await stale(first.token);
    // With a period of a minute, a row gone within the wait was swept by the run at start.
    const once = startSessionSweep(t.ctx, 60_000);
    try {
      await until(async () => (await rowCount(first.token)) === 0, "the sweep at start");
    } finally {
      once();
    }
    const stop = startSessionSweep(t.ctx, 20);
    try {
      await stale(second.token);
      await until(async () => (await rowCount(second.token)) === 0, "a sweep");
      // The run that took the second row has ended: only a later one can take the third.
      await stale(third.token);
      await until(async () => (await rowCount(third.token)) === 0, "the next sweep");
    } finally {
      stop();
    }
    // A run that had started before the stop ends within a few periods; none starts after it.
    await afterTimers(60);
    await stale(fourth.token);
    await afterTimers(60);
    expect(await rowCount(fourth.token)).toBe(1);
  });
});
