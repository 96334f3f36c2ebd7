// The queries of the message actions (replies, edits, deletions, reactions), prepared once per
// database. Every read and write of those features is here, so porting them to another storage
// engine touches this file and the small functions beside it, not the socket handlers.
import { getTableColumns } from "drizzle-orm";
import { messageReactions, messages, type MessageReactionRow, type MessageRow } from "../../../db/schema.ts";
import { perDatabase, type Db } from "../../storage/index.ts";

const columns = Object.entries(getTableColumns(messages)).map(([key, column]) => `"${column.name}" AS "${key}"`).join(", ");
const m = (key: keyof typeof messages.$inferSelect) => getTableColumns(messages)[key].name;
const r = (key: keyof MessageReactionRow) => getTableColumns(messageReactions)[key].name;

function build(db: Db) {
  const c = db.$client;
  return {
    byId: c.prepare<MessageRow, [number]>(`SELECT ${columns} FROM messages WHERE id = ?1`),
    /** The listed ids (one JSON array), for the replies of a page or a chat list. */
    byIds: c.prepare<MessageRow, [string]>(`SELECT ${columns} FROM messages WHERE id IN (SELECT value FROM json_each(?1))`),
    edit: c.prepare<never, [number, string, number]>(`UPDATE messages SET ${m("content")} = ?2, ${m("editedAt")} = ?3 WHERE id = ?1`),
    /** A deletion keeps the row, its times and its place; what it said and its file go. */
    delete: c.prepare<never, [number, number]>(
      `UPDATE messages SET ${m("deletedAt")} = ?2, ${m("content")} = '', ${m("fileName")} = NULL, ${m("filePath")} = NULL,
         ${m("fileSize")} = NULL, ${m("fileMime")} = NULL, ${m("durationMs")} = NULL WHERE id = ?1`,
    ),
    reactionOf: c.prepare<{ emoji: string }, [number, number]>(
      `SELECT ${r("emoji")} AS emoji FROM message_reactions WHERE ${r("messageId")} = ?1 AND ${r("userId")} = ?2`,
    ),
    setReaction: c.prepare<never, [number, number, string, number]>(
      `INSERT INTO message_reactions (${r("messageId")}, ${r("userId")}, ${r("emoji")}, ${r("createdAt")}) VALUES (?1, ?2, ?3, ?4)
       ON CONFLICT (${r("messageId")}, ${r("userId")}) DO UPDATE SET ${r("emoji")} = excluded.${r("emoji")}, ${r("createdAt")} = excluded.${r("createdAt")}`,
    ),
    removeReaction: c.prepare<never, [number, number]>(`DELETE FROM message_reactions WHERE ${r("messageId")} = ?1 AND ${r("userId")} = ?2`),
    removeAllReactions: c.prepare<never, [number]>(`DELETE FROM message_reactions WHERE ${r("messageId")} = ?1`),
    /** The reactions to the listed ids (one JSON array), oldest first. */
    reactionsOf: c.prepare<{ messageId: number; userId: number; emoji: string }, [string]>(
      `SELECT ${r("messageId")} AS messageId, ${r("userId")} AS userId, ${r("emoji")} AS emoji FROM message_reactions
       WHERE ${r("messageId")} IN (SELECT value FROM json_each(?1)) ORDER BY ${r("createdAt")}, ${r("userId")}`,
    ),
  };
}

export const actionStatements = perDatabase(build);

export function messageById(db: Db, id: number): MessageRow | undefined {
  return actionStatements(db).byId.get(id) ?? undefined;
}
