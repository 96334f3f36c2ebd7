// The conversations table kept in step with messages, and the chat list read from it. A message's
// insert writes both sides' rows in its own transaction (statements.ts; on PostgreSQL in the very
// statement, pg-store.ts); a read mark is run inside the transaction that marks the messages, so
// the list never disagrees with the messages it summarises. Each engine has its form, chosen when the statements
// are built: on SQLite prepared once per database and run on the one connection the transaction
// holds (so a `tx` serves them, and they answer at once); on PostgreSQL drizzle's builders on the
// transaction's own connection.
import { and, desc, eq, sql } from "drizzle-orm";
import { conversations, messages, users, type MessageRow, type UserRow } from "../storage/tables.ts";
import type { Db as Engine } from "../db.ts";
import { engine, perDatabase, type Db, type Tx } from "../storage/index.ts";
import { chatListWithExtras, type RowWithExtras } from "./pg-reads.ts";

const p = sql.placeholder;
type Maybe<T> = T | Promise<T>;

export const conversationColumns = {
  owner: conversations.ownerId.name,
  partner: conversations.partnerId.name,
  id: conversations.lastMessageId.name,
  at: conversations.lastMessageAt.name,
  unread: conversations.unreadCount.name,
};
const c = conversationColumns;

export interface ChatRow {
  message: MessageRow;
  contact: UserRow;
  unread: number;
  /** On PostgreSQL the last message's extras come in the same statement (pg-reads.ts); on SQLite actions/extras.ts reads them. */
  extras?: Pick<RowWithExtras, "replyTo" | "reactions">;
}

export interface UnreadRow {
  sender_id: number;
  sender_name: string;
  unread_count: number;
  banned: boolean;
  bannedUntil: number | null;
}

interface Statements {
  read(tx: Tx, owner: number, partner: number, count: number): Maybe<void>;
  list(db: Db, owner: number): Maybe<ChatRow[]>;
  unread(db: Db, owner: number): Maybe<UnreadRow[]>;
}

const listQuery = (db: Db) =>
  db
    .select({ message: messages, contact: users, unread: conversations.unreadCount })
    .from(conversations)
    .innerJoin(messages, eq(messages.id, conversations.lastMessageId))
    .innerJoin(users, eq(users.id, conversations.partnerId));

// In the key's order: partner id, as the route always answered.
const unreadQuery = (db: Db) =>
  db
    .select({ sender_id: conversations.partnerId, sender_name: users.name, unread_count: conversations.unreadCount, banned: users.banned, bannedUntil: users.bannedUntil })
    .from(conversations)
    .innerJoin(users, eq(users.id, conversations.partnerId));

/**
 * SQLite: both sides of a message in one statement (one step instead of two, every message), run
 * by statements.ts right after the message's insert, in its transaction. bun:sqlite's own with
 * positional values: drizzle's prepared run maps its named placeholders in JavaScript on every
 * call. Ids only grow, but max() keeps a late or replayed row from moving the list backwards. SET
 * reads the row as it was, so the order of its assignments does not matter. (On PostgreSQL the
 * message's own insert writes these rows: pg-store.ts.)
 */
export function upsertBothOnSqlite(db: Engine): (row: Pick<MessageRow, "id" | "senderId" | "receiverId" | "createdAt">) => void {
  const upsertBoth = db.$client.prepare<never, [number, number, number, number, number]>(
    `INSERT INTO conversations (${c.owner}, ${c.partner}, ${c.id}, ${c.at}, ${c.unread})
     VALUES (?1, ?2, ?3, ?4, 0), (?2, ?1, ?3, ?4, ?5)
     ON CONFLICT (${c.owner}, ${c.partner}) DO UPDATE SET
       ${c.at} = CASE WHEN excluded.${c.id} > conversations.${c.id} THEN excluded.${c.at} ELSE conversations.${c.at} END,
       ${c.id} = max(conversations.${c.id}, excluded.${c.id}),
       ${c.unread} = conversations.${c.unread} + excluded.${c.unread}`,
  );
  // A new message is unread by its receiver.
  return (row) => void upsertBoth.run(row.senderId, row.receiverId, row.id, row.createdAt, 1);
}

function onSqlite(db: Engine): Statements {
  const read = db
    .update(conversations)
    .set({ unreadCount: sql`max(${conversations.unreadCount} - ${p("count")}, 0)` })
    .where(and(eq(conversations.ownerId, p("owner")), eq(conversations.partnerId, p("partner"))))
    .prepare();
  const list = listQuery(db).where(eq(conversations.ownerId, p("owner"))).orderBy(desc(conversations.lastMessageAt)).prepare();
  const unread = unreadQuery(db)
    .where(and(eq(conversations.ownerId, p("owner")), sql`${conversations.unreadCount} > 0`))
    .orderBy(conversations.partnerId)
    .prepare();
  return {
    read: (_tx, owner, partner, count) => void read.run({ owner, partner, count }),
    list: (_db, owner) => list.all({ owner }),
    unread: (_db, owner) => unread.all({ owner }),
  };
}

function onPostgres(): Statements {
  return {
    async read(tx, owner, partner, count) {
      await tx
        .update(conversations)
        .set({ unreadCount: sql`greatest(${conversations.unreadCount} - ${count}, 0)` })
        .where(and(eq(conversations.ownerId, owner), eq(conversations.partnerId, partner)));
    },
    list: async (db, owner) => (await chatListWithExtras(db, owner)).map(({ replyTo, reactions, ...row }) => ({ ...row, extras: { replyTo, reactions } })),
    unread: async (db, owner) => unreadQuery(db).where(and(eq(conversations.ownerId, owner), sql`${conversations.unreadCount} > 0`)).orderBy(conversations.partnerId),
  };
}

const statements = perDatabase((db): Statements => (engine === "postgres" ? onPostgres() : onSqlite(db)));

/** `count` messages from `partnerId` were just marked read by `readerId`. */
export async function conversationsAfterRead(db: Tx, readerId: number, partnerId: number, count: number): Promise<void> {
  if (count > 0) await statements(db).read(db, readerId, partnerId, count);
}

/** The owner's conversations, newest first, with the last message, the partner and the unread count. */
export function conversationList(db: Db, ownerId: number): Maybe<ChatRow[]> {
  return statements(db).list(db, ownerId);
}

/** Partners with messages unread by the owner, in partner id order, with their ban state. */
export function unreadByPartner(db: Db, ownerId: number): Maybe<UnreadRow[]> {
  return statements(db).unread(db, ownerId);
}
