// A conversation's page, newest first from a time cursor: one range read of the
// messages_conversation index (pair_lo, pair_hi, created_at), so its cost does not grow with the
// conversation. Prepared once per database. The route's answer is written here as JSON text in
// one pass over the rows, without a Message object per row in between.
import { and, desc, eq, inArray, lt, sql } from "drizzle-orm";
import { messages, users, type MessageRow } from "../../db/schema.ts";
import type { Db } from "../db.ts";
import { iso } from "../time.ts";

const p = sql.placeholder;

function prepare(db: Db) {
  return {
    page: db
      .select()
      .from(messages)
      .where(and(eq(messages.pairLo, p("lo")), eq(messages.pairHi, p("hi")), lt(messages.createdAt, p("before"))))
      .orderBy(desc(messages.createdAt))
      .limit(p("limit"))
      .prepare(),
    names: db
      .select({ id: users.id, name: users.name })
      .from(users)
      .where(inArray(users.id, [p("a"), p("b")]))
      .prepare(),
    name: db.select({ name: users.name }).from(users).where(eq(users.id, p("id"))).prepare(),
  };
}

type Statements = ReturnType<typeof prepare>;
const prepared = new WeakMap<Db, Statements>();

function statements(db: Db): Statements {
  let s = prepared.get(db);
  if (!s) prepared.set(db, (s = prepare(db)));
  return s;
}

/** Up to `limit` messages between the two, newest first, older than `before` when given. */
export function historyPage(db: Db, userId: number, contactId: number, limit: number, before = Number.MAX_SAFE_INTEGER): MessageRow[] {
  return statements(db).page.all({ lo: Math.min(userId, contactId), hi: Math.max(userId, contactId), before, limit });
}

/** The two participants' names: every message of a conversation was sent by one of them. */
export function participantNames(db: Db, a: number, b: number): Map<number, string> {
  return new Map(statements(db).names.all({ a, b }).map((r) => [r.id, r.name]));
}

/** A user's name, or undefined when there is no such user: existence and name in one read. */
export function userName(db: Db, id: number): string | undefined {
  return statements(db).name.get({ id })?.name;
}

const text = JSON.stringify as (value: string | null) => string;
const isoText = (ms: number | null): string => (ms === null ? "null" : `"${iso(ms)}"`);

/**
 * One message as JSON text, field for field what toMessage (service.ts) gives to JSON.stringify;
 * tests/messages/history-json.test.ts holds the two equal.
 */
export function messageJson(row: MessageRow, senderName: string, viewerId: number): string {
  const removed = row.removedAt !== null;
  const clientId = text(row.clientMessageId);
  return (
    `{"id":${row.id},"sender_id":${row.senderId},"receiver_id":${row.receiverId},"sender_name":${text(senderName)},` +
    `"content":${text(removed ? "" : row.content)},"message_type":${text(row.messageType)},` +
    `"file_name":${text(removed ? null : row.fileName)},"file_path":${text(removed ? null : row.filePath)},` +
    `"file_size":${removed || row.fileSize === null ? "null" : row.fileSize},"group_id":${text(row.groupId)},` +
    `"client_message_id":${clientId},"clientMessageId":${clientId},"created_at":"${iso(row.createdAt)}",` +
    `"is_delivered":${row.deliveredAt !== null},"delivered_at":${isoText(row.deliveredAt)},` +
    `"is_read":${row.readAt !== null},"read_at":${isoText(row.readAt)},"is_removed":${removed},` +
    `"partner_id":${row.senderId === viewerId ? row.receiverId : row.senderId}}`
  );
}

/**
 * The history route's body: a page oldest first, hasMore, oldestMessageTime and `contact`, as
 * JSON text. Both names are known to the caller (its own from the session, the contact's from the
 * existence check), so the page is the only read here.
 */
export function historyJson(
  db: Db,
  viewer: { id: number; name: string },
  contact: { id: number; name: string; written: boolean },
  limit: number,
  before?: number,
): string {
  const rows = historyPage(db, viewer.id, contact.id, limit + 1, before);
  const count = Math.min(rows.length, limit);
  const parts: string[] = new Array(count);
  // Rows come newest first; the page goes oldest first.
  for (let i = 0; i < count; i++) {
    const row = rows[count - 1 - i]!;
    parts[i] = messageJson(row, row.senderId === viewer.id ? viewer.name : contact.name, viewer.id);
  }
  const oldest = count > 0 ? `"${iso(rows[count - 1]!.createdAt)}"` : "null";
  return `{"messages":[${parts.join(",")}],"hasMore":${rows.length > limit},"oldestMessageTime":${oldest},"contact":${contact.written}}`;
}
