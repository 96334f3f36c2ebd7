// The hot queries must be indexed lookups: no full scan of messages or users, no temporary sort.
// The SQL is captured from the real service functions through drizzle's logger, then SQLite is
// asked for its plan.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { SQLQueryBindings } from "bun:sqlite";
import { drizzle } from "drizzle-orm/bun-sqlite";
import * as schema from "../../db/schema.ts";
import { conversationPage, PAGE_SQL, userName } from "../../src/messages/history.ts";
import { chatUsers, unreadCount, unreadPerUser } from "../../src/messages/service.ts";
import { listUsers } from "../../src/users/service.ts";
import { makeTestApp, type TestApp } from "../support/app.ts";

let t: TestApp;
let captured: { query: string; params: unknown[] }[] = [];
let db: ReturnType<typeof drizzle<typeof schema>>;

beforeAll(() => {
  t = makeTestApp();
  db = drizzle(t.ctx.sqlite, { schema, logger: { logQuery: (query, params) => captured.push({ query, params }) } });
});
afterAll(() => t.close());

const planOf = (query: string, params: unknown[]): string =>
  (t.ctx.sqlite.query(`EXPLAIN QUERY PLAN ${query}`).all(...(params as SQLQueryBindings[])) as { detail: string }[]).map((r) => r.detail).join(" | ");

async function plansOf(run: () => unknown): Promise<string[]> {
  captured = [];
  await run();
  return captured.map(({ query, params }) => planOf(query, params));
}

const assertIndexed = (plans: string[]) => {
  expect(plans.length).toBeGreaterThan(0);
  for (const plan of plans) {
    expect(plan).not.toMatch(/SCAN messages(?! USING)/);
    expect(plan).not.toMatch(/SCAN users(?! USING)/);
    expect(plan).not.toContain("TEMP B-TREE");
    expect(plan).not.toMatch(/SCAN conversations/);
  }
};

describe("query plans", () => {
  test("a conversation page is one indexed range read, with or without a cursor", async () => {
    // The page is a bun:sqlite statement (drizzle's logger does not see it): planned from its SQL.
    for (const before of [Date.now(), Number.MAX_SAFE_INTEGER]) {
      const page = planOf(PAGE_SQL, [1, 2, before, 51]);
      expect(page).toContain("SEARCH messages USING INDEX messages_conversation (pair_lo=? AND pair_hi=? AND created_at<?)");
      assertIndexed([page, ...await plansOf(() => conversationPage(db, { id: 1, name: "a" }, { id: 2, name: "b" }, 50, before)), ...await plansOf(() => userName(db, 2))]);
    }
  });

  test("the chat list reads only the user's conversation rows, newest first, and each last message by id", async () => {
    const plans = await plansOf(() => chatUsers(db, { id: 1, name: "x" }));
    expect(plans).toHaveLength(1);
    expect(plans[0]).toContain("SEARCH conversations USING INDEX conversations_recent (owner_id=?)");
    expect(plans[0]).toContain("SEARCH messages USING INTEGER PRIMARY KEY (rowid=?)");
    assertIndexed(plans);
  });

  test("unread counts read only the user's conversation rows, by key", async () => {
    const hidden = new Set([2, 3]);
    const plans = [...await plansOf(() => unreadCount(db, 1)), ...await plansOf(() => unreadCount(db, 1, hidden)), ...await plansOf(() => unreadPerUser(db, 1))];
    for (const plan of plans) expect(plan).toContain("SEARCH conversations USING PRIMARY KEY (owner_id=?)");
    assertIndexed(plans);
  });

  test("storing and reading update a conversation row by its key", () => {
    const rows = [
      `INSERT INTO conversations (owner_id, partner_id, last_message_id, last_message_at, unread_count) VALUES (1, 2, 1, 1, 1)
       ON CONFLICT (owner_id, partner_id) DO UPDATE SET unread_count = unread_count + excluded.unread_count`,
      "UPDATE conversations SET unread_count = max(unread_count - 1, 0) WHERE owner_id = 1 AND partner_id = 2",
    ].map((q) => (t.ctx.sqlite.query(`EXPLAIN QUERY PLAN ${q}`).all() as { detail: string }[]).map((r) => r.detail).join(" | "));
    // An INSERT has no plan of its own (it would show a SCAN of a subquery); its conflict is found
    // through the unique index of the conflict target, which must be the primary key.
    expect(rows[0]).toBe("");
    const indexes = t.ctx.sqlite.query("PRAGMA index_list(conversations)").all() as { name: string; origin: string; unique: number }[];
    const primary = indexes.find((i) => i.origin === "pk");
    expect(primary?.unique).toBe(1);
    const columns = (t.ctx.sqlite.query(`PRAGMA index_info(${JSON.stringify(primary!.name)})`).all() as { name: string }[]).map((c) => c.name);
    expect(columns).toEqual(["owner_id", "partner_id"]);
    expect(rows[1]).toContain("SEARCH conversations USING PRIMARY KEY (owner_id=? AND partner_id=?)");
  });

  test("the people list walks the presence index in order", async () => {
    for (const filters of [{}, { hidden: new Set([2, 3]) }]) {
      const plans = await plansOf(() => listUsers(db, 1, { limit: 100, ...filters }));
      expect(plans[0]).toContain("users_presence");
      expect(plans[0]).not.toContain("TEMP B-TREE");
    }
  });

  test("a later page starts at its cursor in the presence index; a country search reads its own index in order", async () => {
    const [page] = await plansOf(() => listUsers(db, 1, { limit: 50, cursor: { online: false, lastSeen: Date.now(), id: 9 } }));
    expect(page).toContain("SEARCH users USING INDEX users_presence ((is_online,last_seen)<(?,?))");
    const [country] = await plansOf(() => listUsers(db, 1, { limit: 50, countryCode: "IS" }));
    expect(country).toContain("users_country (country_code=?)");
    assertIndexed([page!, country!]);
  });
});
