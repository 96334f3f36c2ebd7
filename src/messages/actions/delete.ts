// Deleting for everyone: own messages. The row stays (its id, times and place in the
// conversation) with its text and file fields emptied; its reactions go. A message still unread
// leaves the receiver's unread count, and is never counted or marked read again.
import type { MessageRow } from "../../storage/tables.ts";
import { transaction, type Db } from "../../storage/index.ts";
import { conversationsAfterRead } from "../conversations.ts";
import { assertLive, ownLiveMessage } from "./lookup.ts";
import { actionStatements } from "./statements.ts";

export interface Deleted {
  row: MessageRow;
  /** The file to remove from disk (after the commit), and its size for the quota. */
  filePath: string | null;
  fileSize: number;
}

/** Checks and stores the deletion in one transaction. `admit` refuses across a block or the privacy setting. */
export async function deleteMessage(db: Db, userId: number, messageId: number, now: number, admit: (row: MessageRow) => void): Promise<Deleted> {
  const prepared = actionStatements(db);
  // Checked inside the transaction: two deletions at once leave the unread count right.
  const row = await transaction(db, async (tx) => {
    const row = await ownLiveMessage(tx, userId, messageId, "delete");
    admit(row);
    // Deleted (or removed) by another connection since the check: as if it had been before.
    if (!(await prepared.delete(tx, row.id, now))) assertLive({ ...row, deletedAt: now });
    await prepared.removeAllReactions(tx, row.id);
    if (row.readAt === null) await conversationsAfterRead(tx, row.receiverId, row.senderId, 1);
    return row;
  });
  return {
    row: { ...row, deletedAt: now, content: "", fileName: null, filePath: null, fileSize: null, fileMime: null, durationMs: null },
    filePath: row.filePath,
    fileSize: row.filePath === null ? 0 : (row.fileSize ?? 0),
  };
}
