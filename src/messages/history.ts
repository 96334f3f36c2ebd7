// A conversation's page, newest first from a time cursor: one range read of the
// messages_conversation index (pair_lo, pair_hi, created_at), so its cost does not grow with the
// conversation. Prepared once per database.
import { eq, getTableColumns, sql } from "drizzle-orm";
import { messages, users, type MessageRow } from "../../db/schema.ts";
import { perDatabase, type Db } from "../storage/index.ts";
import { iso } from "../time.ts";
import type { Message } from "../realtime/protocol.ts";
import { toMessage } from "./service.ts";
import { extrasOf } from "./actions/extras.ts";

const p = sql.placeholder;

// Every column under its schema key, so SQLite builds the MessageRow objects itself: drizzle's
// row mapping in JavaScript was nearly half of reading a page (51 rows: 55 -> 31 us p50).
const messageColumns = Object.entries(getTableColumns(messages))
  .map(([key, column]) => `"${column.name}" AS "${key}"`)
  .join(", ");

/** Parameters: pair_lo, pair_hi, before, limit. Exported for its query plan test. */
export const PAGE_SQL = `SELECT ${messageColumns} FROM messages WHERE pair_lo = ?1 AND pair_hi = ?2 AND created_at < ?3 ORDER BY created_at DESC LIMIT ?4`;

function prepare(db: Db) {
  return {
    page: db.$client.prepare<MessageRow, [number, number, number, number]>(PAGE_SQL),
    name: db.select({ name: users.name }).from(users).where(eq(users.id, p("id"))).prepare(),
  };
}

const statements = perDatabase(prepare);

/** Up to `limit` messages between the two, newest first, older than `before` when given. */
export function historyPage(db: Db, userId: number, contactId: number, limit: number, before = Number.MAX_SAFE_INTEGER): MessageRow[] {
  return statements(db).page.all(Math.min(userId, contactId), Math.max(userId, contactId), before, limit);
}

/** A user's name, or undefined when there is no such user: existence and name in one read. */
export function userName(db: Db, id: number): string | undefined {
  return statements(db).name.get({ id })?.name;
}

/**
 * One page of a conversation as the API gives it, oldest first. Every sender is one of the two,
 * whose names the caller already has (the viewer's from the session, the contact's from
 * `userName`), so the page is the only read.
 */
export function conversationPage(
  db: Db,
  viewer: { id: number; name: string },
  contact: { id: number; name: string },
  limit: number,
  before?: number,
): { messages: Message[]; hasMore: boolean; oldestMessageTime: string | null } {
  const rows = historyPage(db, viewer.id, contact.id, limit + 1, before);
  const count = Math.min(rows.length, limit);
  // Rows come newest first, the page goes oldest first.
  const nameOf = (id: number) => (id === viewer.id ? viewer.name : contact.name);
  // Replies and reactions of the whole page: at most two more reads (actions/extras.ts).
  const extras = extrasOf(db, count === rows.length ? rows : rows.slice(0, count), nameOf);
  const messages = new Array<Message>(count);
  for (let i = 0; i < count; i++) {
    const row = rows[count - 1 - i]!;
    messages[i] = toMessage(row, nameOf(row.senderId), viewer.id, extras.get(row.id));
  }
  return { messages, hasMore: rows.length > limit, oldestMessageTime: count > 0 ? iso(rows[count - 1]!.createdAt) : null };
}
