// The hot queries must be indexed lookups: no full scan of messages or users, no temporary sort but
// the chat list's own (it sorts all of one owner's rows, as on PostgreSQL).
// The SQL is captured from the real service functions through drizzle's logger, then the engine
// is asked for its plan: SQLite's on a SQLite run, PostgreSQL's (with sequential scans priced
// out, as a test database is too small for the planner to want an index) on a PostgreSQL run.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { SQLQueryBindings } from "bun:sqlite";
import { drizzle } from "drizzle-orm/bun-sqlite";
import * as schema from "../../db/schema.ts";
import { PAGE_SQL, readConversation, userName } from "../../src/messages/history.ts";
import { chatUsers, unreadCount, unreadPerUser } from "../../src/messages/service.ts";
import { listUsers } from "../../src/users/service.ts";
import { engine } from "../../src/storage/engine.ts";
import { makeTestApp, type TestApp } from "../support/app.ts";
import { pgPlans } from "./pg-plans.ts";

let t: TestApp;
let captured: { query: string; params: unknown[] }[] = [];
let db: ReturnType<typeof drizzle<typeof schema>>;
const logger = { logQuery: (query: string, params: unknown[]) => void captured.push({ query, params }) };

beforeAll(async () => {
  t = makeTestApp();
  await t.ready;
  if (engine === "sqlite") db = drizzle(t.ctx.sqlite!, { schema, logger });
});
afterAll(() => t.close());

const planOf = (query: string, params: unknown[]): string =>
  (t.ctx.sqlite!.query(`EXPLAIN QUERY PLAN ${query}`).all(...(params as SQLQueryBindings[])) as { detail: string }[]).map((r) => r.detail).join(" | ");

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

describe.skipIf(engine !== "sqlite")("query plans on SQLite", () => {
  test("a conversation page is one indexed range read, with or without a cursor", async () => {
    // The page is a bun:sqlite statement (drizzle's logger does not see it): planned from its SQL.
    for (const before of [Date.now(), Number.MAX_SAFE_INTEGER]) {
      const page = planOf(PAGE_SQL, [1, 2, before, 51]);
      expect(page).toContain("SEARCH messages USING INDEX messages_conversation (pair_lo=? AND pair_hi=? AND created_at<?)");
      assertIndexed([page, ...await plansOf(() => readConversation(db, { id: 1, name: "a" }, 2, 50, { at: before, idLow: null })), ...await plansOf(() => userName(db, 2))]);
    }
  });

  test("the chat list reads only the user's conversation rows by key, sorts them newest first, and reads each last message by id", async () => {
    const plans = await plansOf(() => chatUsers(db, { id: 1, name: "x" }));
    expect(plans).toHaveLength(1);
    const [plan] = plans as [string];
    expect(plan).toContain("SEARCH conversations USING PRIMARY KEY (owner_id=?)");
    expect(plan).toContain("SEARCH messages USING INTEGER PRIMARY KEY (rowid=?)");
    // The list is every conversation of the owner, so it is sorted after the read (as on
    // PostgreSQL): an index on the time would cost each message two entries rewritten.
    expect(plan).toEndWith("USE TEMP B-TREE FOR ORDER BY");
    assertIndexed([plan.replace(/ \| USE TEMP B-TREE FOR ORDER BY$/, "")]);
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
    ].map((q) => (t.ctx.sqlite!.query(`EXPLAIN QUERY PLAN ${q}`).all() as { detail: string }[]).map((r) => r.detail).join(" | "));
    // An INSERT has no plan of its own (it would show a SCAN of a subquery); its conflict is found
    // through the unique index of the conflict target, which must be the primary key.
    expect(rows[0]).toBe("");
    const indexes = t.ctx.sqlite!.query("PRAGMA index_list(conversations)").all() as { name: string; origin: string; unique: number }[];
    const primary = indexes.find((i) => i.origin === "pk");
    expect(primary?.unique).toBe(1);
    const columns = (t.ctx.sqlite!.query(`PRAGMA index_info(${JSON.stringify(primary!.name)})`).all() as { name: string }[]).map((c) => c.name);
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

describe.skipIf(engine !== "postgres")("query plans on PostgreSQL", () => {
  const plans = pgPlans(() => t.databaseUrl!);
  const assertIndexedPg = (found: string[]) => {
    expect(found.length).toBeGreaterThan(0);
    for (const plan of found) {
      expect(plan).not.toContain("Seq Scan");
      expect(plan).not.toMatch(/\bSort\b/);
    }
  };

  test("a conversation page is one backward range read of messages_conversation, with or without a cursor, its quotes and reactions read by key in the same statement", async () => {
    // Without a cursor, after a time, and after a time and an id (a page that ended inside a millisecond).
    const cursors = [undefined, { at: Date.now(), idLow: null }, { at: Date.now(), idLow: 7 }];
    for (const before of cursors) {
      const found = await plans.of((db) => readConversation(db, { id: 1, name: "a" }, 2, 50, before));
      // The page (a cursor inside a millisecond first finds its id, by the same index; an empty
      // page asks for the contact's name on its own).
      const page = found.find((plan) => plan.includes("ROW(created_at, id)"))!;
      expect(page).toContain("Index Scan Backward using messages_conversation on messages");
      expect(page).toMatch(/Index Cond: \(\(pair_lo = 1\) AND \(pair_hi = 2\) AND \(ROW\(created_at, id\) < ROW\(/);
      expect(page).toMatch(/Index Scan using messages_pkey on messages reply_target[^\n]*\s+Index Cond: \(id = messages.reply_to_id\)/);
      expect(page).toMatch(/Index Scan using message_reactions\w*pk on message_reactions[^\n]*\s+Index Cond: \(message_id = messages.id\)/);
      expect(page).toMatch(/Index Scan using users_pkey on users[^\n]*\s+Index Cond: \(id = 2\)/);
      expect(found.length).toBe((before?.idLow ? 1 : 0) + 2);
      assertIndexedPg(found);
    }
  });

  test("the chat list is one statement: the user's conversation rows by key, sorted, each last message, its quote, reactions and partner by key", async () => {
    const found = await plans.of((db) => chatUsers(db, { id: 1, name: "x" }));
    expect(found.length).toBe(1);
    const [plan] = found;
    // The list is every conversation of the owner, so it is sorted after the read; no index on
    // the time (each message would rewrite its entry: db/pg/schema.ts).
    expect(plan).toMatch(/^Sort[^\n]*\n\s+Sort Key: conversations.last_message_at DESC/);
    expect(plan).toMatch(/Index Scan using conversations_owner_id_partner_id_pk on conversations[^\n]*\s+Index Cond: \(owner_id = 1\)/);
    expect(plan).toContain("messages_pkey");
    expect(plan).toContain("users_pkey");
    expect(plan).toMatch(/Index Scan using message_reactions\w*pk on message_reactions/);
    expect(plan).not.toContain("Seq Scan");
    // The only sort is the list's own, at the top.
    expect(plan!.match(/\bSort  \(cost/g)).toHaveLength(1);
  });

  test("unread counts read only the user's conversation rows, by key", async () => {
    const found = await plans.of((db) => unreadPerUser(db, 1));
    expect(found[0]).toMatch(/Index Scan using conversations_\w*pk on conversations[\s\S]*Index Cond: \(owner_id = 1\)/);
    assertIndexedPg(found);
  });
});
