// Profile reads are rate limited per user (finding 10), so ids cannot be walked at hundreds a second.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { makeTestApp, registerUser, type TestApp } from "../support/app.ts";

let t: TestApp;
beforeAll(() => {
  t = makeTestApp();
});
afterAll(() => t.close());

describe("GET /api/users/:id", () => {
  test("answers 120 reads a minute, then 429 rate_limited with Retry-After; another reader is not held back", async () => {
    const walker = await registerUser(t);
    const other = await registerUser(t);
    const statuses: number[] = [];
    for (let id = 1; id <= 120; id++) statuses.push((await t.call("GET", `/api/users/${id}`, { token: walker.token })).status);
    expect(statuses.every((s) => s === 200 || s === 404)).toBe(true);
    const refused = await t.call("GET", `/api/users/${other.user.id}`, { token: walker.token });
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe("rate_limited");
    const wait = Number(refused.headers.get("retry-after"));
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(60);
    expect((await t.call("GET", `/api/users/${walker.user.id}`, { token: other.token })).status).toBe(200);
  });

  test("PROFILE_RATE_LIMIT sets the reads a minute", async () => {
    const local = makeTestApp({ PROFILE_RATE_LIMIT: "3" });
    try {
      const { token, user } = await registerUser(local);
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) statuses.push((await local.call("GET", `/api/users/${user.id}`, { token })).status);
      expect(statuses).toEqual([200, 200, 200, 429]);
    } finally {
      await local.close();
    }
  });
});
