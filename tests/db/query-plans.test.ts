// The hot queries must be indexed lookups: no full scan of messages or users, no temporary sort.
// The SQL is captured from the real service functions through drizzle's logger, then SQLite is
// asked for its plan.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { SQLQueryBindings } from "bun:sqlite";
import { drizzle } from "drizzle-orm/bun-sqlite";
import * as schema from "../../db/schema.ts";
import { chatUsers, conversation, unreadCount, unreadPerUser } from "../../src/messages/service.ts";
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

function plansOf(run: () => unknown): string[] {
  captured = [];
  run();
  return captured.map(({ query, params }) =>
    (t.ctx.sqlite.query(`EXPLAIN QUERY PLAN ${query}`).all(...(params as SQLQueryBindings[])) as { detail: string }[]).map((r) => r.detail).join(" | "),
  );
}

const assertIndexed = (plans: string[]) => {
  expect(plans.length).toBeGreaterThan(0);
  for (const plan of plans) {
    expect(plan).not.toMatch(/SCAN messages(?! USING)/);
    expect(plan).not.toMatch(/SCAN users(?! USING)/);
    expect(plan).not.toContain("TEMP B-TREE FOR ORDER BY");
  }
};

describe("query plans", () => {
  test("a conversation page is one indexed range read", () => {
    const plans = plansOf(() => conversation(db, 1, 2, 50, Date.now()));
    expect(plans[0]).toContain("messages_conversation");
    assertIndexed(plans.slice(0, 1));
  });

  test("the chat list reads conversations by index from both sides of the pair", () => {
    const plans = plansOf(() => chatUsers(db, { id: 1, name: "x" }));
    expect(plans[0]).toContain("messages_conversation");
    expect(plans[0]).toContain("messages_pair_hi");
    for (const plan of plans) expect(plan).not.toMatch(/SCAN messages(?! USING)/);
  });

  test("unread counts use the unread index", () => {
    const hidden = new Set([2, 3]);
    const plans = [...plansOf(() => unreadCount(db, 1)), ...plansOf(() => unreadCount(db, 1, hidden)), ...plansOf(() => unreadPerUser(db, 1))];
    for (const plan of plans) expect(plan).toContain("messages_unread");
    for (const plan of plans) expect(plan).not.toMatch(/SCAN messages(?! USING)/);
  });

  test("the people list walks the presence index in order", () => {
    for (const filters of [{}, { hidden: new Set([2, 3]) }]) {
      const plans = plansOf(() => listUsers(db, 1, { limit: 100, ...filters }));
      expect(plans[0]).toContain("users_presence");
      expect(plans[0]).not.toContain("TEMP B-TREE");
    }
  });

  test("a later page starts at its cursor in the presence index; a country search reads its own index in order", () => {
    const [page] = plansOf(() => listUsers(db, 1, { limit: 50, cursor: { online: false, lastSeen: Date.now(), id: 9 } }));
    expect(page).toContain("SEARCH users USING INDEX users_presence ((is_online,last_seen)<(?,?))");
    const [country] = plansOf(() => listUsers(db, 1, { limit: 50, countryCode: "IS" }));
    expect(country).toContain("users_country (country_code=?)");
    assertIndexed([page!, country!]);
  });
});
