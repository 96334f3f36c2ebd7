// PostgreSQL: a history page and the chat list, each one statement that also brings what their
// messages show beyond their own rows (the quoted message of a reply, the reactions). On SQLite
// those are three reads answered in process (history.ts, actions/extras.ts); on PostgreSQL each
// read is a round trip, and a request that waits for four of them in turn spent most of its time
// waiting (history p50 2.2 ms against 0.4 for /healthz, however small the page). Each statement is
// built once and prepared under its name on every pooled connection.
import { and, desc, eq, sql } from "drizzle-orm";
import { conversations, messageReactions, messages, users, type MessageRow } from "../storage/tables.ts";
import { alias, perDatabase, type Db } from "../storage/index.ts";
import { namedStatement } from "../storage/pg-client.ts";
import type { ChatRow } from "./conversations.ts";
import type { ReactionRow, ReplyTarget } from "./actions/extras.ts";

const p = sql.placeholder;

/** A message row with what it shows: the message it replies to (as it is now) and its reactions, oldest first. */
export interface RowWithExtras {
  message: MessageRow;
  replyTo: ReplyTarget | null;
  reactions: ReactionRow[] | null;
}

// Both read per row by an index (messages' primary key, message_reactions' (message_id, user_id)).
// The outer row's columns are named with their table: drizzle leaves a column of a query's only
// table unqualified, which inside the subquery would name the subquery's own table.
const outer = (key: "id" | "replyToId") => sql`${sql.identifier("messages")}.${sql.identifier(messages[key].name)}`;
const target = alias(messages, "reply_target");
const replyTo = sql<ReplyTarget | null>`(SELECT json_build_object(
    'id', ${target.id}, 'senderId', ${target.senderId}, 'messageType', ${target.messageType}, 'content', ${target.content},
    'deletedAt', ${target.deletedAt}, 'removedAt', ${target.removedAt})
  FROM ${messages} ${sql.identifier("reply_target")} WHERE ${target.id} = ${outer("replyToId")})`;
const reactions = sql<ReactionRow[] | null>`(SELECT json_agg(json_build_object('userId', ${messageReactions.userId}, 'emoji', ${messageReactions.emoji})
    ORDER BY ${messageReactions.createdAt}, ${messageReactions.userId})
  FROM ${messageReactions} WHERE ${messageReactions.messageId} = ${outer("id")})`;

function statements(db: Db) {
  // The page before (at, id) in (created_at, id) order, newest first (history.ts explains the cursor).
  const page = namedStatement<RowWithExtras & { contactName: string }>(
    db
      .select({ message: messages, replyTo, reactions, contactName: sql<string>`(SELECT ${users.name} FROM ${users} WHERE ${users.id} = ${p("contact")})` })
      .from(messages)
      .where(and(eq(messages.pairLo, p("lo")), eq(messages.pairHi, p("hi")), sql`(${messages.createdAt}, ${messages.id}) < (${p("at")}, ${p("id")})`))
      .orderBy(desc(messages.createdAt), desc(messages.id))
      .limit(p("limit")),
    "history_page",
  );
  const list = namedStatement<ChatRow & Omit<RowWithExtras, "message">>(
    db
      .select({ message: messages, contact: users, unread: conversations.unreadCount, replyTo, reactions })
      .from(conversations)
      .innerJoin(messages, eq(messages.id, conversations.lastMessageId))
      .innerJoin(users, eq(users.id, conversations.partnerId))
      .where(eq(conversations.ownerId, p("owner")))
      .orderBy(desc(conversations.lastMessageAt)),
    "chat_list",
  );
  return { page, list };
}

const prepared = perDatabase(statements);

/**
 * A page of the pair's messages before (at, id), newest first, each with its extras, and the
 * contact's name when the page has a message (an empty page asks for the name on its own).
 */
export async function pageWithExtras(
  db: Db,
  contactId: number,
  lo: number,
  hi: number,
  [at, id]: [number, number],
  limit: number,
): Promise<{ rows: RowWithExtras[]; contactName: string | undefined }> {
  const rows = await prepared(db).page.execute({ contact: contactId, lo, hi, at, id, limit });
  return { rows, contactName: rows[0]?.contactName };
}

/** The owner's conversations, newest first, each last message with its extras. */
export function chatListWithExtras(db: Db, ownerId: number): Promise<(ChatRow & Omit<RowWithExtras, "message">)[]> {
  return prepared(db).list.execute({ owner: ownerId });
}
