// The conversations table kept in step with messages, and the chat list read from it. Callers run
// the write functions inside the transaction that stores or reads the messages, so the list never
// disagrees with the messages it summarises. Statements are prepared once per database.
import { and, desc, eq, sql } from "drizzle-orm";
import { conversations, messages, users, type MessageRow } from "../../db/schema.ts";
import type { Db } from "../db.ts";

const p = sql.placeholder;

function prepare(db: Db) {
  return {
    // Ids only grow, but max() keeps a late or replayed row from moving the list backwards.
    upsert: db
      .insert(conversations)
      .values({ ownerId: p("owner"), partnerId: p("partner"), lastMessageId: p("id"), lastMessageAt: p("at"), unreadCount: p("unread") })
      .onConflictDoUpdate({
        target: [conversations.ownerId, conversations.partnerId],
        set: {
          lastMessageAt: sql`CASE WHEN excluded.last_message_id > ${conversations.lastMessageId} THEN excluded.last_message_at ELSE ${conversations.lastMessageAt} END`,
          lastMessageId: sql`max(${conversations.lastMessageId}, excluded.last_message_id)`,
          unreadCount: sql`${conversations.unreadCount} + excluded.unread_count`,
        },
      })
      .prepare(),
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

type Statements = ReturnType<typeof prepare>;
const prepared = new WeakMap<Db, Statements>();

function statements(db: Db): Statements {
  let s = prepared.get(db);
  if (!s) prepared.set(db, (s = prepare(db)));
  return s;
}

/** Both sides of each stored message: the newest message moves, the receiver's unread count grows. */
export function conversationsAfterStore(db: Db, rows: readonly MessageRow[]): void {
  const { upsert } = statements(db);
  for (const row of rows) {
    upsert.run({ owner: row.senderId, partner: row.receiverId, id: row.id, at: row.createdAt, unread: 0 });
    upsert.run({ owner: row.receiverId, partner: row.senderId, id: row.id, at: row.createdAt, unread: row.readAt === null ? 1 : 0 });
  }
}

/** `count` messages from `partnerId` were just marked read by `readerId`. */
export function conversationsAfterRead(db: Db, readerId: number, partnerId: number, count: number): void {
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
