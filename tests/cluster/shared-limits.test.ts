// Limits that each instance used to count alone, now counted over every instance (docs/
// DECISIONS.md "Issue 23: shared state"): the per-route budgets (profile reads, blocks, ...), the
// rate of new sockets (SOCKET_CONNECT_LIMIT) and the storage quota. Two whole apps in one test over
// one Redis and one database; one process keeps its own tests (tests/users, tests/realtime,
// tests/uploads), unchanged.
import { describe, expect, test } from "bun:test";
import { registerUser, type TestApp } from "../support/app.ts";
import { twoInstancesForFile } from "../support/two-instances.ts";
import { connect, type TestSocket } from "../support/ws.ts";
import { rawUpgrade, socketPath } from "../support/raw-ws.ts";
import { fileOf, uploadForm } from "../uploads/fixtures.ts";
import { localPorts } from "../../src/cluster/local.ts";
import { routeBudget } from "../../src/cluster/budget.ts";
import { Budget } from "../../src/http/rate-limit.ts";
import { AppError } from "../../src/http/errors.ts";
import { redisPorts } from "../../src/cluster/redis.ts";

const KB = 1024;
const ENV = { PRESENCE_GRACE_SECONDS: "0", SIGNUP_RATE_LIMIT: "1000", PROFILE_RATE_LIMIT: "4", SOCKET_CONNECT_LIMIT: "4", SOCKET_CAP: "20:50", STORAGE_QUOTA_MB: "1" };

const { a, b, urlA, urlB } = twoInstancesForFile(ENV);

describe("route budgets over every instance", () => {
  test("profile reads (PROFILE_RATE_LIMIT 4 a minute): 4 in all over A and B, then 429 with Retry-After on both", async () => {
    const reader = await registerUser(a);
    const target = await registerUser(a);
    const read = (t: TestApp) => t.call("GET", `/api/users/${target.user.id}`, { token: reader.token });
    for (const t of [a, b, a, b]) expect((await read(t)).status).toBe(200);
    for (const t of [a, b]) {
      const refused = await read(t);
      expect(refused.status).toBe(429);
      expect(refused.body.code).toBe("rate_limited");
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    }
  });

  test("one process keeps today's synchronous Budget (no promise, no Redis)", () => {
    const budget = routeBudget(localPorts(), "x", 1, 60_000);
    expect(budget).toBeInstanceOf(Budget);
    expect(budget.take(1)).toBeUndefined();
    expect(() => budget.take(1)).toThrow();
  });

  test("while Redis cannot answer, each instance's own count holds (a block never fails for want of Redis)", async () => {
    const away = redisPorts({ url: "redis://127.0.0.1:1", prefix: "test:away:" });
    try {
      const budget = routeBudget(away, "away", 2, 60_000);
      await budget.take(7);
      await budget.take(7);
      const third = await Promise.resolve(budget.take(7)).catch((error: AppError) => error);
      expect(third).toBeInstanceOf(AppError);
      expect((third as AppError).status).toBe(429);
    } finally {
      await away.close();
    }
  }, 20_000);
});

describe("SOCKET_CONNECT_LIMIT over every instance", () => {
  test("4 new sockets a minute in all: two through A and two through B, then the fifth is refused on either", async () => {
    const user = await registerUser(a);
    const opened: TestSocket[] = [];
    try {
      for (const url of [urlA, urlB, urlA, urlB]) opened.push(await connect(url, user.token));
      for (const t of [a, b]) {
        const refused = await rawUpgrade(t.listen().port, socketPath(user.token));
        refused.destroy();
        expect(refused.status).toBe(429);
        expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
      }
    } finally {
      for (const socket of opened) socket.close();
    }
  });
});

describe("the storage quota over every instance", () => {
  test("600 KB stored through A leave no room for 600 KB more through B (STORAGE_QUOTA_MB 1)", async () => {
    const alice = await registerUser(a);
    const bob = await registerUser(a);
    const upload = (t: TestApp, name: string) => t.call("POST", "/api/messages/upload", { token: alice.token, body: uploadForm(bob.user.id, "file", [fileOf(new Uint8Array(600 * KB), name)]) });
    expect((await upload(a, "first.bin")).status).toBe(201);
    const refused = await upload(b, "second.bin");
    expect(refused.status).toBe(413);
    expect(refused.body.code).toBe("quota_exceeded");
  });
});
