// The message an action names, and who may act on it.
import type { MessageRow } from "../../storage/tables.ts";
import type { Db, Tx } from "../../storage/index.ts";
import { AppError, forbidden, notFound } from "../../http/errors.ts";
import { messageById } from "./statements.ts";

/** A message of the user's own conversations; anyone else's is answered as if it did not exist. */
export async function messageOfConversation(db: Db | Tx, userId: number, messageId: number): Promise<MessageRow> {
  const row = Number.isSafeInteger(messageId) ? await messageById(db, messageId) : undefined;
  if (!row || (row.senderId !== userId && row.receiverId !== userId)) throw notFound("Message not found");
  return row;
}

/** The user's own message, still there (neither deleted by them nor removed by a moderator). */
export async function ownLiveMessage(db: Db | Tx, userId: number, messageId: number, verb: string): Promise<MessageRow> {
  const row = await messageOfConversation(db, userId, messageId);
  if (row.senderId !== userId) throw forbidden(`You can only ${verb} your own messages`);
  assertLive(row);
  return row;
}

export function assertLive(row: MessageRow): void {
  if (row.deletedAt !== null) throw new AppError(400, "validation", "This message was deleted", { fields: { messageId: "This message was deleted" } });
  if (row.removedAt !== null) throw new AppError(400, "validation", "This message was removed by a moderator", { fields: { messageId: "This message was removed by a moderator" } });
}

/** The other person of the message's conversation, seen from `userId`. */
export const partnerOf = (row: MessageRow, userId: number): number => (row.senderId === userId ? row.receiverId : row.senderId);
