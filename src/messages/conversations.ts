// The conversations table kept in step with messages, and the chat list read from it. Callers run
// the write functions inside the transaction that stores or reads the messages, so the list never
// disagrees with the messages it summarises. Statements are prepared once per database; on SQLite
// they run on the one connection the transaction holds, so a `tx` serves them.
import { and, desc, eq, sql } from "drizzle-orm";
import { conversations, messages, users, type MessageRow } from "../../db/schema.ts";
import type { Db as Engine } from "../db.ts";
import { perDatabase, type Db, type Tx } from "../storage/index.ts";

const p = sql.placeholder;

const c = {
  owner: conversations.ownerId.name,
  partner: conversations.partnerId.name,
  id: conversations.lastMessageId.name,
  at: conversations.lastMessageAt.name,
  unread: conversations.unreadCount.name,
};

function prepare(db: Engine) {
  return {
    // Both sides of a message in one statement (one step instead of two, every message), and
    // bun:sqlite's own with positional values: drizzle's prepared run maps its named
    // placeholders in JavaScript on every call. Ids only grow, but max() keeps a late or
    // replayed row from moving the list backwards. SET reads the row as it was, so the order of
    // its assignments does not matter.
    upsertBoth: db.$client.prepare<never, [number, number, number, number, number]>(
      `INSERT INTO conversations (${c.owner}, ${c.partner}, ${c.id}, ${c.at}, ${c.unread})
       VALUES (?1, ?2, ?3, ?4, 0), (?2, ?1, ?3, ?4, ?5)
       ON CONFLICT (${c.owner}, ${c.partner}) DO UPDATE SET
         ${c.at} = CASE WHEN excluded.${c.id} > conversations.${c.id} THEN excluded.${c.at} ELSE conversations.${c.at} END,
         ${c.id} = max(conversations.${c.id}, excluded.${c.id}),
         ${c.unread} = conversations.${c.unread} + excluded.${c.unread}`,
    ),
    read: db
      .update(conversations)
      .set({ unreadCount: sql`max(${conversations.unreadCount} - ${p("count")}, 0)` })
      .where(and(eq(conversations.ownerId, p("owner")), eq(conversations.partnerId, p("partner"))))
      .prepare(),
    list: db
      .select({ message: messages, contact: users, unread: conversations.unreadCount })
      .from(conversations)
      .innerJoin(messages, eq(messages.id, conversations.lastMessageId))
      .innerJoin(users, eq(users.id, conversations.partnerId))
      .where(eq(conversations.ownerId, p("owner")))
      .orderBy(desc(conversations.lastMessageAt))
      .prepare(),
    // In the key's order: partner id, as the route always answered.
    unread: db
      .select({ sender_id: conversations.partnerId, sender_name: users.name, unread_count: conversations.unreadCount, banned: users.banned, bannedUntil: users.bannedUntil })
      .from(conversations)
      .innerJoin(users, eq(users.id, conversations.partnerId))
      .where(and(eq(conversations.ownerId, p("owner")), sql`${conversations.unreadCount} > 0`))
      .orderBy(conversations.partnerId)
      .prepare(),
  };
}

const statements = perDatabase(prepare);

/** Both sides of each stored message: the newest message moves, the receiver's unread count grows. */
export async function conversationsAfterStore(db: Tx, rows: readonly MessageRow[]): Promise<void> {
  const { upsertBoth } = statements(db);
  for (const row of rows) upsertBoth.run(row.senderId, row.receiverId, row.id, row.createdAt, row.readAt === null ? 1 : 0);
}

/** `count` messages from `partnerId` were just marked read by `readerId`. */
export async function conversationsAfterRead(db: Tx, readerId: number, partnerId: number, count: number): Promise<void> {
  if (count > 0) statements(db).read.run({ owner: readerId, partner: partnerId, count });
}

/** The owner's conversations, newest first, with the last message, the partner and the unread count. */
export function conversationList(db: Db, ownerId: number) {
  return statements(db).list.all({ owner: ownerId });
}

/** Partners with messages unread by the owner, in partner id order, with their ban state. */
export function unreadByPartner(db: Db, ownerId: number) {
  return statements(db).unread.all({ owner: ownerId });
}
