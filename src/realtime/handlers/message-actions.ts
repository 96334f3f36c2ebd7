// edit_message, delete_message and react: each checks the message (actions/*), the block and
// privacy gate as send_message does, stores, then tells every socket of both people. The socket
// rate limit is the dispatcher's, shared with every other event.
import type { MessageRow } from "../../storage/tables.ts";
import { deleteMessage } from "../../messages/actions/delete.ts";
import { editMessage } from "../../messages/actions/edit.ts";
import { partnerOf } from "../../messages/actions/lookup.ts";
import { toggleReaction } from "../../messages/actions/react.ts";
import { admitMessage } from "../../privacy/gate.ts";
import { removeUpload } from "../../uploads/storage.ts";
import { errorFields } from "../../observability/log.ts";
import { iso } from "../../time.ts";
import type { AppContext } from "../../context.ts";
import type { ServerEventName, ServerEvents } from "../protocol.ts";
import { toId, type HandlerContext, type HandlerMap } from "../handler.ts";

/** A block either way or the other person's privacy setting refuses the action, as it would a message. */
const gate = ({ app, user }: HandlerContext) => (row: MessageRow) => admitMessage(app, user.id, partnerOf(row, user.id));

function tellBoth<K extends ServerEventName>(app: AppContext, row: MessageRow, event: K, data: ServerEvents[K]): void {
  app.hub.sendToUser(row.senderId, event, data);
  app.hub.sendToUser(row.receiverId, event, data);
}

export const messageActionHandlers: HandlerMap<"edit_message" | "delete_message" | "react"> = {
  edit_message: async (ctx, data) => {
    const { app, user } = ctx;
    const row = await editMessage(app.db, user.id, toId(data.messageId), data.content, Date.now(), gate(ctx));
    const edited = { messageId: row.id, content: row.content, edited_at: iso(row.editedAt!) };
    tellBoth(app, row, "message_edited", edited);
    return edited;
  },

  delete_message: async (ctx, data) => {
    const { app, user } = ctx;
    const { row, filePath, fileSize } = await deleteMessage(app.db, user.id, toId(data.messageId), Date.now(), gate(ctx));
    const deleted = { messageId: row.id, deleted_at: iso(row.deletedAt!) };
    tellBoth(app, row, "message_deleted", deleted);
    if (filePath !== null) {
      app.uploads.ledger.freed(user.id, fileSize);
      // The deletion is stored and told: a file left behind is logged, not answered as a failure.
      await removeUpload(app.config, filePath).catch((error: unknown) =>
        app.log.error("a deleted message's file could not be removed", { message_id: row.id, file_path: filePath, ...errorFields(error) }),
      );
    }
    return deleted;
  },

  react: async (ctx, data) => {
    const { app, user } = ctx;
    const { row, emoji } = await toggleReaction(app.db, user.id, toId(data.messageId), data.emoji, Date.now(), gate(ctx));
    const reaction = { messageId: row.id, userId: user.id, emoji };
    tellBoth(app, row, "message_reaction", reaction);
    return reaction;
  },
};
