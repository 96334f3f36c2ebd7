// Chat list, unread counters and history page for a user with 1k messages and one with 100k,
// in a database of TOTAL messages (1,000,000 by default), seeded straight into a temporary SQLite
// file made through the migrations. "before" runs the previous implementation's queries (the
// chat list grouped every message of the user; its index, messages_pair_hi, is rebuilt for it),
// "after" the service functions the routes call. Each figure includes the JSON the route sends.
//   bun bench/chat-list.ts                    (1,000,000 messages, 1,000 timed calls each)
//   TOTAL=200000 RUNS=300 bun bench/chat-list.ts
import { loadavg } from "node:os";
import { and, desc, eq, inArray, isNull, lt, sql } from "drizzle-orm";
import { messages, users } from "../src/storage/tables.ts";
import { openStorage, type Db } from "../src/db.ts";
import { readConversation } from "../src/messages/history.ts";
import { chatUsers, toMessage, unreadCount, unreadPerUser, withNames } from "../src/messages/service.ts";
import { notBanned, toPublicUser } from "../src/users/service.ts";
import { removeFolder, tempFolder } from "./compare/proc.ts";

const TOTAL = Number(process.env.TOTAL ?? 1_000_000);
const RUNS = Number(process.env.RUNS ?? 1_000);
const USERS = 2_000;
const PARTNERS = 40;

const dir = tempFolder("webchat-chat-list-");
const { db, sqlite } = openStorage(dir);

/** Two users with their own partners (ids 3..) and everyone else talking at random. */
function seed(): { busy: number; quiet: number } {
  const user = sqlite.prepare(
    "INSERT INTO users (username, username_key, name, gender, last_seen, created_at) VALUES (?1, lower(?1), ?1, 'female', 0, 0)",
  );
  sqlite.transaction(() => {
    for (let i = 1; i <= USERS; i++) user.run(`user${i}`);
  })();
  // Bulk load: the indexes are built once at the end (a sort, not a million random inserts), and
  // nothing is synced; the timings below run with the server's own settings restored.
  const indexes = sqlite.query("SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'messages' AND sql IS NOT NULL").all() as { sql: string }[];
  for (const { sql: ddl } of indexes) sqlite.exec(`DROP INDEX ${ddl.match(/INDEX [`"]?(\w+)/)![1]}`);
  sqlite.exec("PRAGMA synchronous = OFF");
  sqlite.exec("PRAGMA cache_size = -262144");
  const insert = sqlite.prepare(
    `INSERT INTO messages (sender_id, receiver_id, pair_lo, pair_hi, content, message_type, created_at, delivered_at, read_at)
     VALUES (?1, ?2, min(?1, ?2), max(?1, ?2), ?3, 'text', ?4, ?4, ?5)`,
  );
  const busy = 1;
  const quiet = 2;
  const plan: [owner: number, count: number][] = [[busy, 100_000], [quiet, 1_000]];
  const start = Date.now() - TOTAL * 10;
  let n = 0;
  let rng = 7;
  const random = (k: number) => {
    rng = (rng * 1103515245 + 12345) % 2147483648;
    return Math.floor((rng / 2147483648) * k);
  };
  const write = (from: number, to: number, unread: boolean) => {
    const at = start + n++ * 10;
    insert.run(from, to, `message ${n}`, at, unread ? null : at);
  };
  // The two measured users' messages are spread through the whole history, so their pages are
  // scattered over the file as in a real database. The last 2% of everything is unread.
  const total = Math.max(TOTAL, plan.reduce((sum, [, c]) => sum + c, 0));
  const left = new Map(plan);
  const chunk = sqlite.transaction((from: number, to: number) => {
    for (let i = from; i < to; i++) {
      const unread = i >= total * 0.98;
      let pick = random(total - i);
      const owner = plan.find(([o]) => (pick -= left.get(o)!) < 0)?.[0];
      if (owner !== undefined) {
        left.set(owner, left.get(owner)! - 1);
        const partner = 3 + random(PARTNERS) + (owner === quiet ? PARTNERS : 0);
        if (random(2) === 0) write(owner, partner, unread);
        else write(partner, owner, unread);
      } else {
        // Strangers to both measured users.
        const a = 3 + 2 * PARTNERS + random(USERS - 2 - 2 * PARTNERS);
        const b = 3 + 2 * PARTNERS + random(USERS - 2 - 2 * PARTNERS);
        write(a, b === a ? (a === USERS ? a - 1 : a + 1) : b, unread);
      }
    }
  });
  for (let i = 0; i < total; i += 100_000) chunk(i, Math.min(total, i + 100_000));
  for (const { sql: ddl } of indexes) sqlite.exec(ddl);
  sqlite.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  sqlite.exec("PRAGMA synchronous = NORMAL");
  sqlite.exec("PRAGMA cache_size = -2000");
  // What the migration's backfill does for an upgraded server.
  sqlite.exec("DELETE FROM conversations");
  sqlite.exec(`INSERT INTO conversations (owner_id, partner_id, last_message_id, last_message_at, unread_count)
    SELECT owner_id, partner_id, max(id), created_at, sum(unread) FROM (
      SELECT sender_id AS owner_id, receiver_id AS partner_id, id, created_at, 0 AS unread FROM messages
      UNION ALL SELECT receiver_id, sender_id, id, created_at, read_at IS NULL FROM messages
    ) GROUP BY owner_id, partner_id`);
  return { busy, quiet };
}

// The previous implementation (commit 1c0312f), kept here only to measure against.
function legacyChatList(d: Db, userId: number, name: string) {
  const latest = d.all<{ message_id: number }>(sql`
    SELECT max(id) AS message_id FROM ${messages} WHERE pair_lo = ${userId} GROUP BY pair_hi
    UNION ALL
    SELECT max(id) AS message_id FROM ${messages} WHERE pair_hi = ${userId} GROUP BY pair_lo`);
  const rows = d
    .select({
      message: messages,
      contact: users,
      unread: sql<number>`(SELECT count(*) FROM ${messages} u WHERE u.receiver_id = ${userId} AND u.read_at IS NULL AND u.sender_id = ${users.id})`,
    })
    .from(messages)
    .innerJoin(users, sql`${users.id} = CASE WHEN ${messages.senderId} = ${userId} THEN ${messages.receiverId} ELSE ${messages.senderId} END`)
    .where(inArray(messages.id, latest.map((l) => l.message_id)))
    .orderBy(desc(messages.createdAt))
    .all();
  return rows.map(({ message, contact, unread }) => ({
    ...toPublicUser(contact),
    latest_message: toMessage(message, message.senderId === contact.id ? contact.name : name, userId),
    unread_count: unread,
  }));
}

function legacyUnreadPerUser(d: Db, userId: number) {
  return d
    .select({ sender_id: messages.senderId, sender_name: users.name, unread_count: sql<number>`count(*)` })
    .from(messages)
    .innerJoin(users, eq(users.id, messages.senderId))
    .where(and(eq(messages.receiverId, userId), isNull(messages.readAt), notBanned(Date.now())))
    .groupBy(messages.senderId)
    .all();
}

function legacyHistory(d: Db, userId: number, contactId: number, before?: number) {
  const where = [eq(messages.pairLo, Math.min(userId, contactId)), eq(messages.pairHi, Math.max(userId, contactId))];
  if (before !== undefined) where.push(lt(messages.createdAt, before));
  const rows = d.select().from(messages).where(and(...where)).orderBy(desc(messages.createdAt)).limit(51).all();
  return withNames(d, rows.slice(0, 50).reverse(), userId);
}

async function time(run: () => unknown): Promise<{ p50: number; p99: number }> {
  for (let i = 0; i < Math.min(50, RUNS); i++) JSON.stringify(await run());
  // Garbage left by seeding or by the previous figure is collected here, not inside this one.
  Bun.gc(true);
  const took: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    JSON.stringify(await run());
    took.push(performance.now() - t0);
  }
  took.sort((a, b) => a - b);
  return { p50: took[Math.floor(RUNS * 0.5)]!, p99: took[Math.min(RUNS - 1, Math.floor(RUNS * 0.99))]! };
}

function busiestPartner(userId: number): { partner: number; middle: number } {
  const { partner } = sqlite
    .query("SELECT partner_id AS partner FROM conversations WHERE owner_id = ? ORDER BY last_message_at DESC LIMIT 1")
    .get(userId) as { partner: number };
  const lo = Math.min(userId, partner);
  const hi = Math.max(userId, partner);
  const { middle } = sqlite
    .query("SELECT created_at AS middle FROM messages WHERE pair_lo = ? AND pair_hi = ? ORDER BY created_at LIMIT 1 OFFSET (SELECT count(*) / 2 FROM messages WHERE pair_lo = ? AND pair_hi = ?)")
    .get(lo, hi, lo, hi) as { middle: number };
  return { partner, middle };
}

try {
  const seeding = performance.now();
  const { busy, quiet } = seed();
  const total = (sqlite.query("SELECT count(*) AS n FROM messages").get() as { n: number }).n;
  const count = (id: number) => (sqlite.query("SELECT count(*) AS n FROM messages WHERE sender_id = ?1 OR receiver_id = ?1").get(id) as { n: number }).n;
  console.log(`load average ${loadavg().map((l) => l.toFixed(1)).join(" ")}; seeded ${total.toLocaleString("en")} messages in ${((performance.now() - seeding) / 1000).toFixed(1)} s; ${RUNS} timed calls each (ms, JSON included)`);

  const rows: string[] = [];
  const report = (label: string, figures: { p50: number; p99: number }) => rows.push(`${label.padEnd(44)} p50 ${figures.p50.toFixed(3).padStart(7)}  p99 ${figures.p99.toFixed(3).padStart(7)}`);
  for (const [who, id] of [["1k", quiet], ["100k", busy]] as const) {
    const name = `user${id}`;
    const { partner, middle } = busiestPartner(id);
    const label = `${who} (${count(id).toLocaleString("en")} messages)`;
    report(`after  ${label} chat list`, await time(() => chatUsers(db, { id, name })));
    report(`after  ${label} unread count + per user`, await time(() => Promise.all([unreadCount(db, id), unreadPerUser(db, id)])));
    report(`after  ${label} history, latest page`, await time(() => readConversation(db, { id, name: "owner" }, partner, 50)));
    report(`after  ${label} history, middle page`, await time(() => readConversation(db, { id, name: "owner" }, partner, 50, { at: middle, idLow: null })));
  }
  sqlite.exec("CREATE INDEX messages_pair_hi ON messages (pair_hi, pair_lo)");
  for (const [who, id] of [["1k", quiet], ["100k", busy]] as const) {
    const name = `user${id}`;
    const { partner, middle } = busiestPartner(id);
    const label = `${who} (${count(id).toLocaleString("en")} messages)`;
    report(`before ${label} chat list`, await time(() => legacyChatList(db, id, name)));
    report(`before ${label} unread per user`, await time(() => legacyUnreadPerUser(db, id)));
    report(`before ${label} history, latest page`, await time(() => legacyHistory(db, id, partner)));
    report(`before ${label} history, middle page`, await time(() => legacyHistory(db, id, partner, middle)));
  }
  console.log(rows.join("\n"));
  console.log(`load average ${loadavg().map((l) => l.toFixed(1)).join(" ")}`);
} finally {
  sqlite.close();
  removeFolder(dir);
}
