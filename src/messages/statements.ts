// The message hot path's queries, made once per database in the engine's own form (chosen when
// they are built, never per call). On SQLite they are prepared: building a drizzle query costs its
// SQL string in JavaScript and a fresh SQLite prepare on every call (STACK-NOTES "Speed on this
// stack"), prepared a send is one insert plus index lookups, and each answers at once (no
// promise), so a caller on the hot path can skip an await. On PostgreSQL every call is a promise
// and runs on the handle it is given: inside the writer's batch that is the transaction, whose
// own uncommitted rows (a retried client id in the same batch) only it can see.
import { and, eq, getTableColumns, inArray, isNull, sql } from "drizzle-orm";
import { messages, sessions, users, type MessageRow, type UserRow } from "../storage/tables.ts";
import type { Db as Engine } from "../db.ts";
import { engine, perDatabase, type Db, type Tx } from "../storage/index.ts";
import { namedStatement } from "../storage/pg-client.ts";
import { upsertBothOnSqlite } from "./conversations.ts";
import { CombinedInserts, combinedInsert } from "./pg-store.ts";

const p = sql.placeholder;

type Bindings = Record<string, string | number | null>;
type Maybe<T> = T | Promise<T>;

/** What insertUnlessStored binds: every column of a new message but the ones set later. */
export type NewMessage = Omit<MessageRow, "id" | "removedAt" | "readAt" | "editedAt" | "deletedAt">;

/** Handles are the seam's; on SQLite the statements ignore them (one connection serves all). */
export interface Statements {
  byClientId(db: Db | Tx, senderId: number, clientMessageId: string): Maybe<MessageRow | undefined>;
  /**
   * Stores the message and both sides' conversation rows (the chat list, conversations.ts); the
   * new row's id, or null, having written nothing, when the sender already stored a message under
   * this client id.
   */
  insert(tx: Tx, row: NewMessage): Maybe<number | null>;
  userExists(db: Db, id: number): Maybe<boolean>;
  userById(db: Db, id: number): Maybe<UserRow | undefined>;
  /** Marks one message delivered; false when it was already (someone else marked it first). */
  markDelivered(tx: Tx, id: number, at: number): Maybe<boolean>;
  deliverPending(tx: Tx, receiverId: number, at: number): Maybe<MessageRow[]>;
  /**
   * All of one sender's unread messages to the reader; a read message counts as delivered too.
   * A deleted message left the unread count when it was deleted (actions/delete.ts), so it is
   * not read (nor counted) again.
   */
  markReadAll(tx: Tx, readerId: number, senderId: number, at: number): Maybe<MessageRow[]>;
  /** The same for the listed ids. */
  markReadIds(tx: Tx, readerId: number, senderId: number, at: number, ids: number[]): Maybe<MessageRow[]>;
  /** Whether the session row is still there (another process may have deleted it). */
  sessionExists(db: Db, id: string): Maybe<boolean>;
  touchSession(tx: Tx, id: string, at: number): Maybe<void>;
}

/**
 * The two statements of every message are bun:sqlite's own, answering rows already in
 * MessageRow's shape (each column aliased to its property): drizzle's prepared queries map every
 * returned row again in JavaScript. The names come from the schema, so a renamed column follows.
 */
const columns = Object.entries(getTableColumns(messages)).map(([key, column]) => [key, column.name] as const);
const MESSAGE_COLUMNS = columns.map(([key, name]) => `"${name}" AS "${key}"`).join(", ");
const LATER = new Set(["id", "removedAt", "readAt", "editedAt", "deletedAt"]);
const INSERTED = columns.filter(([key]) => !LATER.has(key));

function onSqlite(db: Engine): Statements {
  const byClientId = db.$client.prepare<MessageRow, Bindings>(
    `SELECT ${MESSAGE_COLUMNS} FROM messages WHERE sender_id = $senderId AND client_message_id = $clientMessageId`,
  );
  // No RETURNING: the caller has every value it binds and builds the row itself (service.ts
  // insertMessage), taking only the new id from the run's lastInsertRowid.
  // A second message under the same client id writes nothing (changes 0): a retry costs no
  // lookup before every first try.
  const insert = db.$client.prepare<never, Bindings>(
    `INSERT INTO messages (${INSERTED.map(([, name]) => name).join(", ")})
     VALUES (${INSERTED.map(([key]) => `$${key}`).join(", ")})
     ON CONFLICT DO NOTHING`,
  );
  const upsertBoth = upsertBothOnSqlite(db);
  const userExists = db.select({ id: users.id }).from(users).where(eq(users.id, p("id"))).prepare();
  const userById = db.select().from(users).where(eq(users.id, p("id"))).prepare();
  const markDelivered = db
    .update(messages)
    .set({ deliveredAt: sql`${p("at")}` })
    .where(and(eq(messages.id, p("id")), isNull(messages.deliveredAt)))
    .prepare();
  const deliverPending = db
    .update(messages)
    .set({ deliveredAt: sql`${p("at")}` })
    .where(and(eq(messages.receiverId, p("receiverId")), isNull(messages.deliveredAt)))
    .returning()
    .prepare();
  const unreadFrom = and(eq(messages.receiverId, p("readerId")), eq(messages.senderId, p("senderId")), isNull(messages.readAt), isNull(messages.deletedAt));
  const read = { readAt: sql`${p("at")}`, deliveredAt: sql`coalesce(${messages.deliveredAt}, ${p("at")})` };
  const markReadAll = db.update(messages).set(read).where(unreadFrom).returning().prepare();
  // The ids as one JSON array, so one statement serves any count.
  const markReadIds = db
    .update(messages)
    .set(read)
    .where(and(unreadFrom, sql`${messages.id} IN (SELECT value FROM json_each(${p("ids")}))`))
    .returning()
    .prepare();
  const sessionExists = db.select({ id: sessions.id }).from(sessions).where(eq(sessions.id, p("id"))).prepare();
  const touchSession = db.update(sessions).set({ lastUsedAt: sql`${p("at")}` }).where(eq(sessions.id, p("id"))).prepare();
  // The writes run only inside a transaction (`Tx`), on the one connection that transaction holds.
  return {
    byClientId: (_db, senderId, clientMessageId) => byClientId.get({ senderId, clientMessageId }) ?? undefined,
    insert: (_tx, row) => {
      const { changes, lastInsertRowid } = insert.run(row as unknown as Bindings);
      if (changes === 0) return null;
      const id = Number(lastInsertRowid);
      upsertBoth({ id, senderId: row.senderId, receiverId: row.receiverId, createdAt: row.createdAt });
      return id;
    },
    userExists: (_db, id) => userExists.get({ id }) !== undefined,
    userById: (_db, id) => userById.get({ id }),
    // drizzle types a prepared run as void; it answers bun:sqlite's run result.
    markDelivered: (_tx, id, at) => (markDelivered.run({ id, at }) as unknown as { changes: number }).changes > 0,
    deliverPending: (_tx, receiverId, at) => deliverPending.all({ receiverId, at }),
    markReadAll: (_tx, readerId, senderId, at) => markReadAll.all({ readerId, senderId, at }),
    markReadIds: (_tx, readerId, senderId, at, ids) => markReadIds.all({ readerId, senderId, at, ids: JSON.stringify(ids) }),
    sessionExists: (_db, id) => sessionExists.get({ id }) !== undefined,
    touchSession: (_tx, id, at) => void touchSession.run({ id, at }),
  };
}

/**
 * Drizzle's builders on the handle given: reads on the database or the transaction, writes on the
 * transaction. The user read asked on the database itself (the users cache's misses: every frame of
 * a socket whose row the cache let go) is named and prepared instead: building it was most of the
 * CPU of thousands of idle sockets.
 */
function onPostgres(root: Db): Statements {
  const userByIdNamed = namedStatement<UserRow>(root.select().from(users).where(eq(users.id, p("id"))).limit(1), "user_by_id");
  const combined = new CombinedInserts(combinedInsert(INSERTED.map(([key]) => key)));
  const unreadFrom = (readerId: number, senderId: number) =>
    and(eq(messages.receiverId, readerId), eq(messages.senderId, senderId), isNull(messages.readAt), isNull(messages.deletedAt));
  const read = (at: number) => ({ readAt: at, deliveredAt: sql<number>`coalesce(${messages.deliveredAt}, ${at})` });
  return {
    byClientId: async (db, senderId, clientMessageId) =>
      (await db.select().from(messages).where(and(eq(messages.senderId, senderId), eq(messages.clientMessageId, clientMessageId))).limit(1))[0],
    insert: (tx, row) => combined.insert(tx, row),
    userExists: async (db, id) => (await db.select({ id: users.id }).from(users).where(eq(users.id, id)).limit(1)).length > 0,
    userById: async (db, id) =>
      db === root ? (await userByIdNamed.execute({ id }))[0] : (await db.select().from(users).where(eq(users.id, id)).limit(1))[0],
    markDelivered: async (tx, id, at) =>
      (await tx.update(messages).set({ deliveredAt: at }).where(and(eq(messages.id, id), isNull(messages.deliveredAt))).returning({ id: messages.id })).length > 0,
    deliverPending: async (tx, receiverId, at) =>
      tx.update(messages).set({ deliveredAt: at }).where(and(eq(messages.receiverId, receiverId), isNull(messages.deliveredAt))).returning(),
    markReadAll: async (tx, readerId, senderId, at) => tx.update(messages).set(read(at)).where(unreadFrom(readerId, senderId)).returning(),
    markReadIds: async (tx, readerId, senderId, at, ids) =>
      tx.update(messages).set(read(at)).where(and(unreadFrom(readerId, senderId), inArray(messages.id, ids))).returning(),
    sessionExists: async (db, id) => (await db.select({ id: sessions.id }).from(sessions).where(eq(sessions.id, id)).limit(1)).length > 0,
    touchSession: async (tx, id, at) => {
      await tx.update(sessions).set({ lastUsedAt: at }).where(eq(sessions.id, id));
    },
  };
}

/** This database's statements, made on first use. */
export const statements: (db: Db) => Statements = perDatabase((db) => (engine === "postgres" ? onPostgres(db) : onSqlite(db)));

/**
 * Users are never deleted (no route or script does), so an id once seen stays valid: after the
 * first lookup a receiver's existence is a Set lookup, not a query (and no promise).
 */
const knownUsers = perDatabase(() => new Set<number>());

export function userExists(db: Db, id: number): boolean | Promise<boolean> {
  const known = knownUsers(db);
  if (known.has(id)) return true;
  const found = statements(db).userExists(db, id);
  const remember = (exists: boolean) => {
    if (exists) known.add(id);
    return exists;
  };
  return found instanceof Promise ? found.then(remember) : remember(found);
}
