// A conversation's page, newest first from a time cursor: one range read of the
// messages_conversation index, so its cost does not grow with the conversation.
//
// On SQLite one process writes and MessageClock (service.ts) makes every message time unique, so
// the cursor is the time alone (index pair_lo, pair_hi, created_at). On PostgreSQL several
// instances write, each with its own clock, so two messages of one conversation may share a
// millisecond: the page is ordered by (created_at, id) (the index ends in id there) and a page
// that ends inside a millisecond says where, in the cursor's digits below the millisecond (see
// `cursorAfter`). The API's `before` stays an ISO time either way.
import { and, desc, eq, getTableColumns, sql } from "drizzle-orm";
import { messages, users, type MessageRow } from "../storage/tables.ts";
import { engine, perDatabase, type Db } from "../storage/index.ts";
import { iso } from "../time.ts";
import type { Message } from "../realtime/protocol.ts";
import { toMessage, type MessageExtras } from "./service.ts";
import { extrasFrom, extrasOf } from "./actions/extras.ts";
import { pageWithExtras } from "./pg-reads.ts";

const p = sql.placeholder;
type Maybe<T> = T | Promise<T>;

/**
 * Where a page starts: before the time `at` (ms); `idLow` is the message id's last six digits
 * when the previous page ended inside that millisecond (PostgreSQL), null otherwise.
 */
export interface Cursor {
  at: number;
  idLow: number | null;
}

const ID_DIGITS = 1_000_000;

// Every column under its schema key, so SQLite builds the MessageRow objects itself: drizzle's
// row mapping in JavaScript was nearly half of reading a page (51 rows: 55 -> 31 us p50).
const messageColumns = Object.entries(getTableColumns(messages))
  .map(([key, column]) => `"${column.name}" AS "${key}"`)
  .join(", ");

/** Parameters: pair_lo, pair_hi, before, limit. Exported for its query plan test. */
export const PAGE_SQL = `SELECT ${messageColumns} FROM messages WHERE pair_lo = ?1 AND pair_hi = ?2 AND created_at < ?3 ORDER BY created_at DESC LIMIT ?4`;

interface Statements {
  page(db: Db, lo: number, hi: number, before: Cursor | undefined, limit: number): Maybe<MessageRow[]>;
  name(db: Db, id: number): Maybe<{ name: string } | undefined>;
}

function onSqlite(db: Db): Statements {
  const page = db.$client.prepare<MessageRow, [number, number, number, number]>(PAGE_SQL);
  const name = db.select({ name: users.name }).from(users).where(eq(users.id, p("id"))).prepare();
  return {
    page: (_db, lo, hi, before, limit) => page.all(lo, hi, before?.at ?? Number.MAX_SAFE_INTEGER, limit),
    name: (_db, id) => name.get({ id }),
  };
}

/** The PostgreSQL page, exported for its query plan test: messages of the pair before (at, id), newest first. */
export const pgPageQuery = (db: Db, lo: number, hi: number, at: number, id: number, limit: number) =>
  db
    .select()
    .from(messages)
    .where(and(eq(messages.pairLo, lo), eq(messages.pairHi, hi), sql`(${messages.createdAt}, ${messages.id}) < (${at}, ${id})`))
    .orderBy(desc(messages.createdAt), desc(messages.id))
    .limit(limit);

function onPostgres(): Statements {
  return {
    async page(db, lo, hi, before, limit) {
      const [at, id] = await bound(db, lo, hi, before);
      return pgPageQuery(db, lo, hi, at, id, limit);
    },
    name: async (db, id) => (await db.select({ name: users.name }).from(users).where(eq(users.id, id)).limit(1))[0],
  };
}

/** The cursor as (created_at, id): every message before it in the page order. */
async function bound(db: Db, lo: number, hi: number, before: Cursor | undefined): Promise<[number, number]> {
  if (!before) return [Number.MAX_SAFE_INTEGER, 0];
  // Ids below 1 do not exist: (at, 0) is "before the millisecond".
  if (before.idLow === null) return [before.at, 0];
  const [row] = await db
    .select({ id: messages.id })
    .from(messages)
    .where(and(eq(messages.pairLo, lo), eq(messages.pairHi, hi), eq(messages.createdAt, before.at), sql`${messages.id} % ${ID_DIGITS} = ${before.idLow}`))
    .orderBy(desc(messages.id))
    .limit(1);
  if (row) return [before.at, row.id];
  // No message of this pair there (a cursor not made by this server): the time as an instant,
  // which a fraction below the millisecond puts after the millisecond's start.
  return before.idLow > 0 ? [before.at + 1, 0] : [before.at, 0];
}

const statements = perDatabase((db): Statements => (engine === "postgres" ? onPostgres() : onSqlite(db)));

/** Up to `limit` messages between the two, newest first, older than `before` when given. */
export function historyPage(db: Db, userId: number, contactId: number, limit: number, before?: Cursor): Maybe<MessageRow[]> {
  return statements(db).page(db, Math.min(userId, contactId), Math.max(userId, contactId), before, limit);
}

/** A user's name, or undefined when there is no such user: existence and name in one read. */
export async function userName(db: Db, id: number): Promise<string | undefined> {
  return (await statements(db).name(db, id))?.name;
}

/**
 * The next page's cursor: the oldest message's time. When the message after it (`next`) shares
 * its millisecond (two instances wrote then; PostgreSQL only), the time alone would skip `next`,
 * so the digits below the millisecond carry the oldest message's id (its last six digits: the
 * few messages of one conversation in one millisecond never differ by a million ids). Still an
 * ISO time, a few nanoseconds into that millisecond, which clients pass back as they got it.
 */
export function cursorAfter(oldest: MessageRow, next: MessageRow | undefined): string {
  const time = iso(oldest.createdAt);
  if (engine !== "postgres" || next?.createdAt !== oldest.createdAt) return time;
  return `${time.slice(0, -1)}${String(oldest.id % ID_DIGITS).padStart(6, "0")}Z`;
}

/** The `before` query value as a cursor (its time checked by the route). */
export function cursorOf(raw: string, at: number): Cursor {
  const fraction = /\.(\d+)/.exec(raw)?.[1];
  return { at, idLow: fraction?.length === 9 ? Number(fraction.slice(3)) : null };
}

export interface ConversationPage {
  messages: Message[];
  hasMore: boolean;
  oldestMessageTime: string | null;
}

/**
 * One page of a conversation as the API gives it, oldest first; undefined when there is no such
 * user. Every sender is one of the two, whose names the caller knows (the
 * viewer's from the session, the contact's read here), so only the page and its extras are read:
 * on SQLite the name, the page and at most two reads of extras (actions/extras.ts), answered in
 * process; on PostgreSQL one statement for all of it (pg-reads.ts).
 */
export async function readConversation(
  db: Db,
  viewer: { id: number; name: string },
  contactId: number,
  limit: number,
  before?: Cursor,
): Promise<ConversationPage | undefined> {
  const lo = Math.min(viewer.id, contactId);
  const hi = Math.max(viewer.id, contactId);
  let rows: MessageRow[];
  let extras: Map<number, MessageExtras>;
  let contactName: string | undefined;
  if (engine === "postgres") {
    const read = await pageWithExtras(db, contactId, lo, hi, await bound(db, lo, hi, before), limit + 1);
    // An empty page says nothing of the contact: its name (and whether they exist) on its own.
    contactName = read.contactName ?? (await userName(db, contactId));
    if (contactName === undefined) return undefined;
    const nameOf = namesOf(viewer, { id: contactId, name: contactName });
    rows = read.rows.map((row) => row.message);
    extras = new Map(read.rows.map((row) => [row.message.id, extrasFrom(row.replyTo, row.reactions, nameOf)]));
  } else {
    contactName = await userName(db, contactId);
    if (contactName === undefined) return undefined;
    rows = await statements(db).page(db, lo, hi, before, limit + 1);
    extras = await extrasOf(db, rows.length > limit ? rows.slice(0, limit) : rows, namesOf(viewer, { id: contactId, name: contactName }));
  }
  return pageOf(rows, extras, viewer, { id: contactId, name: contactName }, limit);
}

const namesOf = (viewer: { id: number; name: string }, contact: { id: number; name: string }) => (id: number) => (id === viewer.id ? viewer.name : contact.name);

/** Rows newest first (one more than the page, when there is more) as the page, oldest first. */
function pageOf(rows: MessageRow[], extras: Map<number, MessageExtras>, viewer: { id: number; name: string }, contact: { id: number; name: string }, limit: number): ConversationPage {
  const count = Math.min(rows.length, limit);
  const nameOf = namesOf(viewer, contact);
  const messages = new Array<Message>(count);
  for (let i = 0; i < count; i++) {
    const row = rows[count - 1 - i]!;
    messages[i] = toMessage(row, nameOf(row.senderId), viewer.id, extras.get(row.id));
  }
  return { messages, hasMore: rows.length > limit, oldestMessageTime: count > 0 ? cursorAfter(rows[count - 1]!, rows[count]) : null };
}
