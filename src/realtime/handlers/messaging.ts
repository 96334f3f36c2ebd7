// send_message, typing and read receipts over the socket.
import { AppError, validationError } from "../../http/errors.ts";
import { announceRead, announceStored } from "../../messages/notify.ts";
import { markRead, requireContact, storeText, toMessage } from "../../messages/service.ts";
import { toId, type HandlerMap } from "../handler.ts";

export const messagingHandlers: HandlerMap<"send_message" | "typing_start" | "typing_stop" | "messages_read"> = {
  send_message: ({ app, user }, data) => {
    const { row, created } = storeText(app.db, app.clock, user, {
      receiverId: toId(data.receiverId),
      content: data.content,
      messageType: data.messageType,
      clientMessageId: data.clientMessageId,
    });
    if (!created) return { message: toMessage(row, user.name) };
    const [message] = announceStored(app, user, [row]);
    return { message };
  },

  typing_start: ({ app, user }, data) => {
    const receiverId = toId(data.receiverId);
    if (receiverId === user.id) return;
    app.hub.sendToUser(receiverId, "user_typing", { userId: user.id, name: user.name, isTyping: true });
  },

  typing_stop: ({ app, user }, data) => {
    const receiverId = toId(data.receiverId);
    if (receiverId === user.id) return;
    app.hub.sendToUser(receiverId, "user_typing", { userId: user.id, name: user.name, isTyping: false });
  },

  messages_read: ({ app, user }, data) => {
    if (data.receiverId !== undefined && toId(data.receiverId) !== user.id) {
      throw new AppError(403, "forbidden", "You can only mark messages sent to you as read");
    }
    const senderId = toId(data.senderId);
    if (senderId === user.id) throw validationError({ senderId: "senderId must be the other person" });
    requireContact(app.db, user.id, senderId);
    const readAt = Date.now();
    const rows = markRead(app.db, user.id, senderId, readAt, data.messageIds.map(toId));
    announceRead(app, user.id, senderId, rows, readAt);
    return { updatedCount: rows.length };
  },
};
