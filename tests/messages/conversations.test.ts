// The conversations table must always equal what the messages say: after any mix of sends,
// uploads, reads and removals, and after the migration's backfill of an older database.
import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { chatUsers, markRead, storeFiles, storeText, unreadCount } from "../../src/messages/service.ts";
import { removeMessage } from "../../src/moderation/actions.ts";
import { engine } from "../../src/storage/engine.ts";
import { requireUser } from "../../src/users/service.ts";
import { makeTestApp, registerUser, type TestApp } from "../support/app.ts";

interface Row {
  owner_id: number;
  partner_id: number;
  last_message_id: number;
  last_message_at: number;
  unread_count: number;
}

type MessageFacts = { id: number; sender_id: number; receiver_id: number; created_at: number; read_at: number | null };

/** From scratch, in JavaScript: each side of each pair, its newest message and what it has not read. */
function expected(all: MessageFacts[]): Row[] {
  const rows = new Map<string, Row>();
  for (const m of all) {
    for (const [owner, partner] of [[m.sender_id, m.receiver_id], [m.receiver_id, m.sender_id]] as const) {
      const key = `${owner}:${partner}`;
      const row = rows.get(key) ?? { owner_id: owner, partner_id: partner, last_message_id: 0, last_message_at: 0, unread_count: 0 };
      if (m.id > row.last_message_id) Object.assign(row, { last_message_id: m.id, last_message_at: m.created_at });
      if (owner === m.receiver_id && m.read_at === null) row.unread_count++;
      rows.set(key, row);
    }
  }
  return [...rows.values()].sort((a, b) => a.owner_id - b.owner_id || a.partner_id - b.partner_id);
}

type Query = (text: string) => Promise<Record<string, unknown>[]> | Record<string, unknown>[];
const onFile = (db: Database): Query => (text) => db.query(text).all() as Record<string, unknown>[];
/** Numbers as numbers: PostgreSQL's bigint columns arrive as strings through raw SQL. */
const numbers = <T>(rows: Record<string, unknown>[]) =>
  rows.map((row) => Object.fromEntries(Object.entries(row).map(([key, value]) => [key, value === null ? null : Number(value)]))) as T[];
const stored = async (query: Query) => numbers<Row>(await query("SELECT * FROM conversations ORDER BY owner_id, partner_id"));
const facts = async (query: Query) => numbers<MessageFacts>(await query("SELECT id, sender_id, receiver_id, created_at, read_at FROM messages"));

/** A small deterministic generator, so a failure replays the same mix. */
function random(seed: number) {
  let s = seed;
  return (n: number) => {
    s = (s * 1103515245 + 12345) % 2147483648;
    // The high bits: an LCG's low bits cycle quickly.
    return Math.floor((s / 2147483648) * n);
  };
}

describe("the conversations table", () => {
  let t: TestApp;
  let ids: number[];
  beforeAll(async () => {
    t = makeTestApp();
    ids = [];
    for (let i = 0; i < 5; i++) ids.push((await registerUser(t)).user.id);
  });
  afterAll(() => t.close());

  test("equals a from-scratch computation after a random mix of sends, uploads, reads and removals", async () => {
    const next = random(11);
    const pick = () => ids[next(ids.length)]!;
    for (let step = 0; step < 400; step++) {
      const from = pick();
      let to = pick();
      if (to === from) to = ids[(ids.indexOf(from) + 1) % ids.length]!;
      const action = next(10);
      if (action < 5) {
        await storeText(t.ctx.db, t.ctx.clock, await requireUser(t.ctx.db, from), { receiverId: to, content: `step ${step}` });
      } else if (action < 7) {
        const files = Array.from({ length: 1 + next(3) }, (_, i) => ({
          content: "",
          messageType: "file",
          fileName: `f${step}-${i}.txt`,
          filePath: `files/f${step}-${i}.txt`,
          fileSize: 1,
          fileMime: "text/plain",
          groupId: `g${step}`,
        }));
        await storeFiles(t.ctx.db, t.ctx.clock, from, to, files);
      } else if (action < 8) {
        await markRead(t.ctx.db, to, from, Date.now());
      } else if (action < 9) {
        // Some of the unread ones, as the socket's messages_read does (a stale id among them).
        const unread = await t.sql<{ id: number }>("SELECT id FROM messages WHERE sender_id = ? AND receiver_id = ? AND read_at IS NULL", from, to);
        await markRead(t.ctx.db, to, from, Date.now(), [...unread.filter(() => next(2) === 0).map((r) => r.id), 99_999_999]);
      } else {
        const live = await t.sql<{ id: number }>("SELECT id FROM messages WHERE removed_at IS NULL ORDER BY id DESC LIMIT 5");
        if (live.length > 0) await removeMessage(t.ctx, { id: null, role: "cli" }, live[next(live.length)]!.id, "test");
      }
    }
    const rows = await stored(t.sql);
    expect(rows.length).toBeGreaterThan(10);
    expect(rows.some((r) => r.unread_count > 0)).toBe(true);
    expect(rows).toEqual(expected(await facts(t.sql)));
  });

  test("reading twice does not count twice, and a read never goes below zero", async () => {
    const [a, b] = [ids[0]!, ids[1]!];
    await storeText(t.ctx.db, t.ctx.clock, await requireUser(t.ctx.db, a), { receiverId: b, content: "once" });
    await markRead(t.ctx.db, b, a, Date.now());
    await markRead(t.ctx.db, b, a, Date.now());
    const row = (await stored(t.sql)).find((r) => r.owner_id === b && r.partner_id === a)!;
    expect(row.unread_count).toBe(0);
    expect(await stored(t.sql)).toEqual(expected(await facts(t.sql)));
  });
});

describe("the chat list over the conversations table", () => {
  test("a removed last message stays the latest, shown as removed, and still counts as unread", async () => {
    const t = makeTestApp();
    try {
      const [a, b] = [await registerUser(t), await registerUser(t)];
      await storeText(t.ctx.db, t.ctx.clock, await requireUser(t.ctx.db, a.user.id), { receiverId: b.user.id, content: "first" });
      const { row } = await storeText(t.ctx.db, t.ctx.clock, await requireUser(t.ctx.db, a.user.id), { receiverId: b.user.id, content: "vile" });
      await removeMessage(t.ctx, { id: null, role: "cli" }, row.id, "test");
      const [entry] = await chatUsers(t.ctx.db, await requireUser(t.ctx.db, b.user.id));
      expect(entry).toMatchObject({ id: a.user.id, unread_count: 2, latest_message: { id: row.id, content: "", is_removed: true } });
      expect(await unreadCount(t.ctx.db, b.user.id)).toBe(2);
    } finally {
      await t.close();
    }
  });
});

// About SQLite's migration files: PostgreSQL databases start from their own schema, with the table.
describe.skipIf(engine !== "sqlite")("the conversations migration", () => {
  test("backfills every existing conversation, so an upgraded server shows the same list", async () => {
    const folder = join(import.meta.dir, "..", "..", "db", "migrations");
    const files = readdirSync(folder).filter((f) => f.endsWith(".sql")).sort();
    const apply = (db: Database, file: string) => {
      for (const statement of readFileSync(join(folder, file), "utf8").split("--> statement-breakpoint")) if (statement.trim()) db.exec(statement);
    };
    const db = new Database(":memory:", { strict: true });
    const upgrade = files.findIndex((f) => f.includes("conversations"));
    for (const file of files.slice(0, upgrade)) apply(db, file);
    const user = db.prepare("INSERT INTO users (username, username_key, name, gender, last_seen, created_at) VALUES (?1, lower(?1), ?1, 'male', 0, 0) RETURNING id");
    const people = [1, 2, 3, 4].map((i) => (user.get(`user${i}`) as { id: number }).id);
    const message = db.prepare(
      "INSERT INTO messages (sender_id, receiver_id, pair_lo, pair_hi, content, message_type, created_at, read_at) VALUES (?1, ?2, min(?1, ?2), max(?1, ?2), 'x', 'text', ?3, ?4)",
    );
    const next = random(5);
    for (let i = 0; i < 200; i++) {
      const from = people[next(4)]!;
      const to = people[(people.indexOf(from) + 1 + next(3)) % 4]!;
      message.run(from, to, 1_000 + i, next(3) === 0 ? null : 2_000 + i);
    }
    for (const file of files.slice(upgrade)) apply(db, file);
    expect(await stored(onFile(db))).toEqual(expected(await facts(onFile(db))));
    expect(await stored(onFile(db))).toHaveLength(12);
    db.close();
  });
});
