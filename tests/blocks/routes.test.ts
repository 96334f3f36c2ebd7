// POST/DELETE/GET /api/blocks (API.md "Safety"): answers, refusals and the per-user budget.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { BLOCK_CHANGES_PER_HOUR } from "../../src/blocks/index.ts";
import { makeTestApp, registerUser, type TestApp } from "../support/app.ts";
import { clockMovesOn } from "../support/until.ts";

let t: TestApp;
beforeAll(() => {
  t = makeTestApp({ SIGNUP_RATE_LIMIT: "1000" });
});
afterAll(() => t.close());

const blockIt = (token: string, target: Record<string, unknown>) => t.call("POST", "/api/blocks", { token, json: target });

describe("POST /api/blocks", () => {
  test("blocks a person with 201 and the public user, and answers 200 with the same body when repeated", async () => {
    const me = await registerUser(t);
    const them = await registerUser(t, { name: "Pest Person" });
    const first = await blockIt(me.token, { userId: them.user.id });
    expect(first.status).toBe(201);
    expect(first.body.block.user).toMatchObject({ id: them.user.id, name: "Pest Person" });
    expect(first.body.block.user.email).toBeUndefined();
    expect(first.body.block.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    const again = await blockIt(me.token, { userId: String(them.user.id) });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
  });

  test("refuses blocking yourself (400), an unknown person (404) and a body naming nobody or both (400)", async () => {
    const me = await registerUser(t);
    const self = await blockIt(me.token, { userId: me.user.id });
    expect(self.status).toBe(400);
    expect(self.body.fields.userId).toBe("You cannot block yourself");
    const unknown = await blockIt(me.token, { userId: 987654 });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe("not_found");
    for (const body of [{}, { userId: 2, rouletteId: "abc" }, { userId: "x" }, { userId: 0 }, { rouletteId: "" }]) {
      const r = await blockIt(me.token, body);
      expect(r.status).toBe(400);
      expect(r.body.code).toBe("validation");
    }
  });

  test("answers 404 for a roulette id the caller never had", async () => {
    const me = await registerUser(t);
    const r = await blockIt(me.token, { rouletteId: "not-a-session" });
    expect(r.status).toBe(404);
    expect(r.body.error).toBe("That Video Roulette session is over or unknown");
  });

  test("needs a signed-in caller", async () => {
    expect((await t.call("POST", "/api/blocks", { json: { userId: 1 } })).status).toBe(401);
    expect((await t.call("GET", "/api/blocks")).status).toBe(401);
    expect((await t.call("DELETE", "/api/blocks/1")).status).toBe(401);
  });
});

describe("GET /api/blocks", () => {
  test("lists the people the caller blocked, newest first, with blocked_at, and nobody who blocked the caller", async () => {
    const me = await registerUser(t);
    const [a, b, c] = [await registerUser(t), await registerUser(t), await registerUser(t)];
    await blockIt(me.token, { userId: a.user.id });
    await clockMovesOn();
    await blockIt(me.token, { userId: b.user.id });
    await blockIt(c.token, { userId: me.user.id });
    const r = await t.call("GET", "/api/blocks", { token: me.token });
    expect(r.status).toBe(200);
    expect(r.body.users.map((u: { id: number }) => u.id)).toEqual([b.user.id, a.user.id]);
    expect(r.body.users[0].blocked_at).toBeString();
    expect(r.body.users[0].email).toBeUndefined();
    expect(r.body.strangers).toBe(0);
  });
});

describe("DELETE /api/blocks/:userId", () => {
  test("unblocks with 204, answers 204 when there was no block, and 400 for an id that is not a number", async () => {
    const me = await registerUser(t);
    const them = await registerUser(t);
    await blockIt(me.token, { userId: them.user.id });
    const r = await t.call("DELETE", `/api/blocks/${them.user.id}`, { token: me.token });
    expect(r.status).toBe(204);
    expect(r.text).toBe("");
    expect((await t.call("GET", "/api/blocks", { token: me.token })).body.users).toEqual([]);
    expect((await t.call("DELETE", `/api/blocks/${them.user.id}`, { token: me.token })).status).toBe(204);
    const bad = await t.call("DELETE", "/api/blocks/abc", { token: me.token });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe("validation");
  });

  test("cannot lift a block someone else made", async () => {
    const blocker = await registerUser(t);
    const blocked = await registerUser(t);
    await blockIt(blocker.token, { userId: blocked.user.id });
    expect((await t.call("DELETE", `/api/blocks/${blocker.user.id}`, { token: blocked.token })).status).toBe(204);
    expect(t.ctx.blocks.hasBlocked(blocker.user.id, blocked.user.id)).toBe(true);
  });
});

describe("the block budget", () => {
  test(`allows ${BLOCK_CHANGES_PER_HOUR} blocks and unblocks an hour per user, then answers 429 with Retry-After`, async () => {
    const me = await registerUser(t);
    const other = await registerUser(t);
    const them = await registerUser(t);
    for (let i = 0; i < BLOCK_CHANGES_PER_HOUR; i++) {
      const r = i % 2 === 0 ? await blockIt(me.token, { userId: them.user.id }) : await t.call("DELETE", `/api/blocks/${them.user.id}`, { token: me.token });
      expect(r.status).toBeLessThan(300);
    }
    const refused = await blockIt(me.token, { userId: them.user.id });
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe("rate_limited");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await t.call("DELETE", `/api/blocks/${them.user.id}`, { token: me.token })).status).toBe(429);
    expect(t.ctx.blocks.hasBlocked(me.user.id, them.user.id)).toBe(false);
    // Someone else's budget is their own.
    expect((await blockIt(other.token, { userId: them.user.id })).status).toBe(201);
  });
});
