// What a message shows beyond its own row: the message it replies to and its reactions. A page
// of history or a chat list reads both for all its rows in at most two queries; a new message
// needs neither (it has no reactions, and its reply was read when it was checked).
import type { MessageRow } from "../../storage/tables.ts";
import type { Db } from "../../storage/index.ts";
import { REPLY_PREVIEW_CHARS, type MessageReactions, type MessageType, type ReplyPreview } from "../../realtime/protocol.ts";
import type { MessageExtras } from "../service.ts";
import { actionStatements } from "./statements.ts";

/** What a reply's quote is made of. */
export type ReplyTarget = Pick<MessageRow, "id" | "senderId" | "messageType" | "content" | "deletedAt" | "removedAt">;
export type ReactionRow = { userId: number; emoji: string };

/** The quote a reply carries: the target as it is now (empty once deleted or removed). */
export function replyPreview(target: ReplyTarget, senderName: string): ReplyPreview {
  const gone = target.deletedAt !== null || target.removedAt !== null;
  return {
    id: target.id,
    sender_name: senderName,
    message_type: target.messageType as MessageType,
    content: gone ? "" : cut(target.content, REPLY_PREVIEW_CHARS),
  };
}

/** At most `max` UTF-16 units (a JavaScript string's length), never splitting a character in two. */
export function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = 0;
  for (const char of text) {
    if (end + char.length > max) break;
    end += char.length;
  }
  return text.slice(0, end);
}

/** Reactions grouped by emoji, each group in the order people reacted. */
function group(rows: readonly ReactionRow[]): MessageReactions[] {
  const byEmoji = new Map<string, number[]>();
  for (const row of rows) {
    const ids = byEmoji.get(row.emoji);
    if (ids) ids.push(row.userId);
    else byEmoji.set(row.emoji, [row.userId]);
  }
  return [...byEmoji].map(([emoji, user_ids]) => ({ emoji, user_ids }));
}

/** One message's reactions. */
export async function reactionsOf(db: Db, messageId: number): Promise<MessageReactions[]> {
  return group(await actionStatements(db).reactionsOf(db, [messageId]));
}

/** A row's extras from its reply target and reactions as read (PostgreSQL reads them with the row: pg-reads.ts). */
export function extrasFrom(target: ReplyTarget | null | undefined, reactions: readonly ReactionRow[] | null, nameOf: (userId: number) => string): MessageExtras {
  return { replyTo: target ? replyPreview(target, nameOf(target.senderId)) : null, reactions: group(reactions ?? []) };
}

/**
 * The extras of each row, by message id. `nameOf` gives a sender's name (always one of the two
 * people of the conversation, whom the caller knows).
 */
export async function extrasOf(db: Db, rows: readonly MessageRow[], nameOf: (userId: number) => string): Promise<Map<number, MessageExtras>> {
  const extras = new Map<number, MessageExtras>();
  if (rows.length === 0) return extras;
  const prepared = actionStatements(db);
  const replyIds = [...new Set(rows.flatMap((row) => (row.replyToId === null ? [] : [row.replyToId])))];
  const targets = new Map(replyIds.length === 0 ? [] : (await prepared.byIds(db, replyIds)).map((row) => [row.id, row]));
  const reactionRows = await prepared.reactionsOf(db, rows.map((row) => row.id));
  const reactionsByMessage = new Map<number, ReactionRow[]>();
  for (const reaction of reactionRows) {
    const list = reactionsByMessage.get(reaction.messageId);
    if (list) list.push(reaction);
    else reactionsByMessage.set(reaction.messageId, [reaction]);
  }
  for (const row of rows) {
    const target = row.replyToId === null ? undefined : targets.get(row.replyToId);
    extras.set(row.id, extrasFrom(target, reactionsByMessage.get(row.id) ?? null, nameOf));
  }
  return extras;
}
