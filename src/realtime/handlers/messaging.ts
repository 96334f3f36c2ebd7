// send_message, typing and read receipts over the socket. Blocks and the receiver's privacy
// setting are checked in memory (privacy/gate.ts): nothing here adds a query per event.
import { AppError, validationError } from "../../http/errors.ts";
import { announceOne, announceRead, deliveredNow } from "../../messages/notify.ts";
import { markRead, requireContact, storeText, toMessage } from "../../messages/service.ts";
import { messageWriter } from "../../messages/writer.ts";
import { reactionsOf } from "../../messages/actions/extras.ts";
import { admitMessage, refusal } from "../../privacy/gate.ts";
import { holdSends } from "../outbox.ts";
import { EncodedAck, toId, type HandlerContext, type HandlerMap } from "../handler.ts";

/** Typing reaches only someone who would accept a message from the typist; otherwise it is dropped. */
function typing({ app, user }: HandlerContext, receiverIdRaw: number | string, isTyping: boolean): void {
  const receiverId = toId(receiverIdRaw);
  if (receiverId === user.id || refusal(app, user.id, receiverId)) return;
  app.hub.sendToUser(receiverId, "user_typing", { userId: user.id, name: user.name, isTyping });
}

export const messagingHandlers: HandlerMap<"send_message" | "typing_start" | "typing_stop" | "messages_read"> = {
  send_message: async ({ app, user }, data) => {
    // Stored with everything else that arrived this turn (messages/writer.ts); told only after the
    // commit, the batch's frames corked per socket (outbox.ts).
    const stored = messageWriter(app.db).submit((tx) =>
      storeText(
        tx,
        app.clock,
        user,
        {
          receiverId: toId(data.receiverId),
          content: data.content,
          messageType: data.messageType,
          clientMessageId: data.clientMessageId,
          replyToId: data.replyToId === undefined ? undefined : toId(data.replyToId),
        },
        (receiverId) => admitMessage(app, user.id, receiverId),
        (receiverId) => deliveredNow(app, receiverId),
      ),
      // Its one write is the insert (with both conversation rows, in the same statement).
      { oneStatement: true },
    );
    // After submit, so the release comes after the writer's flush in the same turn.
    holdSends();
    const { row, created, replyTo } = await stored;
    const extras = { replyTo, reactions: [] };
    if (!created) return { message: toMessage(row, user.name, user.id, { replyTo, reactions: await reactionsOf(app.db, row.id) }) };
    app.metrics.messagesStored.inc();
    return new EncodedAck(`{"message":${announceOne(app, user, row, extras).json}}`);
  },

  typing_start: (ctx, data) => typing(ctx, data.receiverId, true),

  typing_stop: (ctx, data) => typing(ctx, data.receiverId, false),

  messages_read: async ({ app, user }, data) => {
    if (data.receiverId !== undefined && toId(data.receiverId) !== user.id) {
      throw new AppError(403, "forbidden", "You can only mark messages sent to you as read");
    }
    const senderId = toId(data.senderId);
    if (senderId === user.id) throw validationError({ senderId: "senderId must be the other person" });
    await requireContact(app.db, user.id, senderId);
    const readAt = Date.now();
    const rows = await markRead(app.db, user.id, senderId, readAt, data.messageIds.map(toId));
    // Across a block the rows are still marked read; announceRead drops only the event.
    announceRead(app, user.id, senderId, rows, readAt);
    return { updatedCount: rows.length };
  },
};
