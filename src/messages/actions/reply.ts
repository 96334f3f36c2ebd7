// Replying: the replied-to message must be of the same conversation and not deleted.
import type { Db, Tx } from "../../storage/index.ts";
import { notFound } from "../../http/errors.ts";
import type { ReplyPreview } from "../../realtime/protocol.ts";
import { replyPreview } from "./extras.ts";
import { assertLive } from "./lookup.ts";
import { messageById } from "./statements.ts";

/**
 * The quote for a reply from `senderId` to `receiverId`, or a refusal: a message of another
 * conversation is answered as unknown (404), a deleted or removed one as a validation error.
 * One indexed read, made only for replies.
 */
export async function admitReply(db: Db | Tx, senderId: number, receiverId: number, replyToId: number, nameOf: (userId: number) => string): Promise<ReplyPreview> {
  const target = Number.isSafeInteger(replyToId) ? await messageById(db, replyToId) : undefined;
  const samePair = target && target.pairLo === Math.min(senderId, receiverId) && target.pairHi === Math.max(senderId, receiverId);
  if (!target || !samePair) throw notFound("The message you reply to is not in this conversation");
  assertLive(target);
  return replyPreview(target, nameOf(target.senderId));
}
