// Editing: own text messages, within EDIT_WINDOW_MS of sending.
import type { MessageRow } from "../../storage/tables.ts";
import { transaction, type Db } from "../../storage/index.ts";
import { forbidden, validationError } from "../../http/errors.ts";
import { EDIT_WINDOW_MS } from "../../realtime/protocol.ts";
import { messageText } from "../service.ts";
import { assertLive, ownLiveMessage } from "./lookup.ts";
import { actionStatements } from "./statements.ts";

/** Checks and stores the edit; answers the row as it is now. `admit` refuses across a block or the privacy setting. */
export async function editMessage(db: Db, userId: number, messageId: number, rawContent: string, now: number, admit: (row: MessageRow) => void): Promise<MessageRow> {
  const content = messageText(rawContent);
  // Checked and written in one transaction (its turn among the writes): an edit never lands on a
  // message deleted meanwhile.
  return transaction(db, async (tx) => {
    const row = await ownLiveMessage(tx, userId, messageId, "edit");
    if (row.messageType !== "text") throw validationError({ messageId: "Only text messages can be edited" });
    if (now - row.createdAt > EDIT_WINDOW_MS) throw forbidden("A message can be edited for 15 minutes after it was sent");
    admit(row);
    if (!(await actionStatements(tx).edit(tx, row.id, content, now))) assertLive({ ...row, deletedAt: now });
    return { ...row, content, editedAt: now };
  });
}
