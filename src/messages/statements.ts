// The message hot path's queries, prepared once per database. Building a drizzle query costs
// its SQL string in JavaScript and a fresh SQLite prepare on every call (STACK-NOTES "Speed on
// this stack"); prepared, a send is one insert plus index lookups.
import { and, eq, getTableColumns, isNull, sql } from "drizzle-orm";
import { messages, sessions, users, type MessageRow } from "../../db/schema.ts";
import type { Db as Engine } from "../db.ts";
import { perDatabase, type Db, type Tx } from "../storage/index.ts";

const p = sql.placeholder;

type Bindings = Record<string, string | number | null>;

/**
 * The two statements of every message are bun:sqlite's own, answering rows already in
 * MessageRow's shape (each column aliased to its property): drizzle's prepared queries map every
 * returned row again in JavaScript. The names come from the schema, so a renamed column follows.
 */
const columns = Object.entries(getTableColumns(messages)).map(([key, column]) => [key, column.name] as const);
const MESSAGE_COLUMNS = columns.map(([key, name]) => `"${name}" AS "${key}"`).join(", ");
const LATER = new Set(["id", "removedAt", "readAt", "editedAt", "deletedAt"]);
const INSERTED = columns.filter(([key]) => !LATER.has(key));

// Made from the whole handle (perDatabase hands it over); the writes among them run only inside a
// transaction (`Tx`), on SQLite's one connection that transaction holds.
function build(db: Engine) {
  return {
    byClientId: db.$client.prepare<MessageRow, Bindings>(
      `SELECT ${MESSAGE_COLUMNS} FROM messages WHERE sender_id = $senderId AND client_message_id = $clientMessageId`,
    ),
    // No RETURNING: the caller has every value it binds and builds the row itself (service.ts
    // insertMessage), taking only the new id from the run's lastInsertRowid.
    // A second message under the same client id writes nothing (changes 0): a retry costs no
    // lookup before every first try.
    insert: db.$client.prepare<never, Bindings>(
      `INSERT INTO messages (${INSERTED.map(([, name]) => name).join(", ")})
       VALUES (${INSERTED.map(([key]) => `$${key}`).join(", ")})
       ON CONFLICT DO NOTHING`,
    ),
    userExists: db.select({ id: users.id }).from(users).where(eq(users.id, p("id"))).prepare(),
    userById: db.select().from(users).where(eq(users.id, p("id"))).prepare(),
    markDelivered: db
      .update(messages)
      .set({ deliveredAt: sql`${p("at")}` })
      .where(and(eq(messages.id, p("id")), isNull(messages.deliveredAt)))
      .prepare(),
    deliverPending: db
      .update(messages)
      .set({ deliveredAt: sql`${p("at")}` })
      .where(and(eq(messages.receiverId, p("receiverId")), isNull(messages.deliveredAt)))
      .returning()
      .prepare(),
    /**
     * All of one sender's unread messages to the reader; a read message counts as delivered too.
     * A deleted message left the unread count when it was deleted (actions/delete.ts), so it is
     * not read (nor counted) again.
     */
    markReadAll: db
      .update(messages)
      .set({ readAt: sql`${p("at")}`, deliveredAt: sql`coalesce(${messages.deliveredAt}, ${p("at")})` })
      .where(and(eq(messages.receiverId, p("readerId")), eq(messages.senderId, p("senderId")), isNull(messages.readAt), isNull(messages.deletedAt)))
      .returning()
      .prepare(),
    /** The same for the listed ids, passed as one JSON array so one statement serves any count. */
    markReadIds: db
      .update(messages)
      .set({ readAt: sql`${p("at")}`, deliveredAt: sql`coalesce(${messages.deliveredAt}, ${p("at")})` })
      .where(
        and(
          eq(messages.receiverId, p("readerId")),
          eq(messages.senderId, p("senderId")),
          isNull(messages.readAt),
          isNull(messages.deletedAt),
          sql`${messages.id} IN (SELECT value FROM json_each(${p("ids")}))`,
        ),
      )
      .returning()
      .prepare(),
    /** Whether the session row is still there (another process may have deleted it). */
    sessionExists: db.select({ id: sessions.id }).from(sessions).where(eq(sessions.id, p("id"))).prepare(),
    /** A write: run it inside a transaction (the socket dispatcher submits it to the message writer). */
    touchSession: db.update(sessions).set({ lastUsedAt: sql`${p("at")}` }).where(eq(sessions.id, p("id"))).prepare(),
  };
}

export type Statements = ReturnType<typeof build>;

/** This database's prepared statements, made on first use. */
export const statements: (db: Db) => Statements = perDatabase(build);

/**
 * Users are never deleted (no route or script does), so an id once seen stays valid: after the
 * first lookup a receiver's existence is a Set lookup, not a query.
 */
const knownUsers = perDatabase(() => new Set<number>());

export function userExists(db: Db, id: number): boolean {
  const known = knownUsers(db);
  if (known.has(id)) return true;
  if (!statements(db).userExists.get({ id })) return false;
  known.add(id);
  return true;
}
