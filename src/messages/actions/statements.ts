// The queries of the message actions (replies, edits, deletions, reactions), made once per
// database in the engine's form. Every read and write of those features is here, so the small
// functions beside it and the socket handlers do not know the engine. On SQLite bun:sqlite's own
// prepared statements, answering at once; on PostgreSQL drizzle's builders on the handle given
// (the transaction, for the writes and for the reads that check before writing).
import { and, asc, eq, getTableColumns, inArray, isNull } from "drizzle-orm";
import { messageReactions, messages, type MessageReactionRow, type MessageRow } from "../../storage/tables.ts";
import { engine, perDatabase, type Db, type Tx } from "../../storage/index.ts";

type Maybe<T> = T | Promise<T>;
type Reaction = { messageId: number; userId: number; emoji: string };

interface ActionStatements {
  byId(db: Db | Tx, id: number): Maybe<MessageRow | undefined>;
  /** The listed ids, for the replies of a page or a chat list. */
  byIds(db: Db, ids: number[]): Maybe<MessageRow[]>;
  /**
   * Both write only a message still there, and answer whether they did: on PostgreSQL another
   * connection may delete it between the check and the write (on SQLite transactions take turns).
   */
  edit(tx: Tx, id: number, content: string, at: number): Maybe<boolean>;
  /** A deletion keeps the row, its times and its place; what it said and its file go. */
  delete(tx: Tx, id: number, at: number): Maybe<boolean>;
  reactionOf(tx: Tx, messageId: number, userId: number): Maybe<string | undefined>;
  setReaction(tx: Tx, messageId: number, userId: number, emoji: string, at: number): Maybe<void>;
  removeReaction(tx: Tx, messageId: number, userId: number): Maybe<void>;
  removeAllReactions(tx: Tx, messageId: number): Maybe<void>;
  /** The reactions to the listed ids, oldest first. */
  reactionsOf(db: Db, ids: number[]): Maybe<Reaction[]>;
}

const columns = Object.entries(getTableColumns(messages)).map(([key, column]) => `"${column.name}" AS "${key}"`).join(", ");
const m = (key: keyof typeof messages.$inferSelect) => getTableColumns(messages)[key].name;
const r = (key: keyof MessageReactionRow) => getTableColumns(messageReactions)[key].name;

const LIVE = `${m("deletedAt")} IS NULL AND ${m("removedAt")} IS NULL`;

function onSqlite(db: Db): ActionStatements {
  const c = db.$client;
  const byId = c.prepare<MessageRow, [number]>(`SELECT ${columns} FROM messages WHERE id = ?1`);
  // The ids as one JSON array, so one statement serves any count.
  const byIds = c.prepare<MessageRow, [string]>(`SELECT ${columns} FROM messages WHERE id IN (SELECT value FROM json_each(?1))`);
  const edit = c.prepare<never, [number, string, number]>(`UPDATE messages SET ${m("content")} = ?2, ${m("editedAt")} = ?3 WHERE id = ?1 AND ${LIVE}`);
  const remove = c.prepare<never, [number, number]>(
    `UPDATE messages SET ${m("deletedAt")} = ?2, ${m("content")} = '', ${m("fileName")} = NULL, ${m("filePath")} = NULL,
       ${m("fileSize")} = NULL, ${m("fileMime")} = NULL, ${m("durationMs")} = NULL WHERE id = ?1 AND ${LIVE}`,
  );
  const reactionOf = c.prepare<{ emoji: string }, [number, number]>(
    `SELECT ${r("emoji")} AS emoji FROM message_reactions WHERE ${r("messageId")} = ?1 AND ${r("userId")} = ?2`,
  );
  const setReaction = c.prepare<never, [number, number, string, number]>(
    `INSERT INTO message_reactions (${r("messageId")}, ${r("userId")}, ${r("emoji")}, ${r("createdAt")}) VALUES (?1, ?2, ?3, ?4)
     ON CONFLICT (${r("messageId")}, ${r("userId")}) DO UPDATE SET ${r("emoji")} = excluded.${r("emoji")}, ${r("createdAt")} = excluded.${r("createdAt")}`,
  );
  const removeReaction = c.prepare<never, [number, number]>(`DELETE FROM message_reactions WHERE ${r("messageId")} = ?1 AND ${r("userId")} = ?2`);
  const removeAllReactions = c.prepare<never, [number]>(`DELETE FROM message_reactions WHERE ${r("messageId")} = ?1`);
  const reactionsOf = c.prepare<Reaction, [string]>(
    `SELECT ${r("messageId")} AS messageId, ${r("userId")} AS userId, ${r("emoji")} AS emoji FROM message_reactions
     WHERE ${r("messageId")} IN (SELECT value FROM json_each(?1)) ORDER BY ${r("createdAt")}, ${r("userId")}`,
  );
  return {
    byId: (_db, id) => byId.get(id) ?? undefined,
    byIds: (_db, ids) => byIds.all(JSON.stringify(ids)),
    edit: (_tx, id, content, at) => edit.run(id, content, at).changes > 0,
    delete: (_tx, id, at) => remove.run(id, at).changes > 0,
    reactionOf: (_tx, messageId, userId) => reactionOf.get(messageId, userId)?.emoji,
    setReaction: (_tx, messageId, userId, emoji, at) => void setReaction.run(messageId, userId, emoji, at),
    removeReaction: (_tx, messageId, userId) => void removeReaction.run(messageId, userId),
    removeAllReactions: (_tx, messageId) => void removeAllReactions.run(messageId),
    reactionsOf: (_db, ids) => reactionsOf.all(JSON.stringify(ids)),
  };
}

function onPostgres(): ActionStatements {
  const live = (id: number) => and(eq(messages.id, id), isNull(messages.deletedAt), isNull(messages.removedAt));
  const one = (messageId: number, userId: number) => and(eq(messageReactions.messageId, messageId), eq(messageReactions.userId, userId));
  return {
    byId: async (db, id) => (await db.select().from(messages).where(eq(messages.id, id)).limit(1))[0],
    byIds: async (db, ids) => db.select().from(messages).where(inArray(messages.id, ids)),
    edit: async (tx, id, content, at) =>
      (await tx.update(messages).set({ content, editedAt: at }).where(live(id)).returning({ id: messages.id })).length > 0,
    delete: async (tx, id, at) =>
      (
        await tx
          .update(messages)
          .set({ deletedAt: at, content: "", fileName: null, fileMime: null, filePath: null, fileSize: null, durationMs: null })
          .where(live(id))
          .returning({ id: messages.id })
      ).length > 0,
    reactionOf: async (tx, messageId, userId) =>
      (await tx.select({ emoji: messageReactions.emoji }).from(messageReactions).where(one(messageId, userId)).limit(1))[0]?.emoji,
    async setReaction(tx, messageId, userId, emoji, at) {
      await tx
        .insert(messageReactions)
        .values({ messageId, userId, emoji, createdAt: at })
        .onConflictDoUpdate({ target: [messageReactions.messageId, messageReactions.userId], set: { emoji, createdAt: at } });
    },
    async removeReaction(tx, messageId, userId) {
      await tx.delete(messageReactions).where(one(messageId, userId));
    },
    async removeAllReactions(tx, messageId) {
      await tx.delete(messageReactions).where(eq(messageReactions.messageId, messageId));
    },
    reactionsOf: async (db, ids) =>
      db
        .select({ messageId: messageReactions.messageId, userId: messageReactions.userId, emoji: messageReactions.emoji })
        .from(messageReactions)
        .where(inArray(messageReactions.messageId, ids))
        .orderBy(asc(messageReactions.createdAt), asc(messageReactions.userId)),
  };
}

export const actionStatements = perDatabase((db): ActionStatements => (engine === "postgres" ? onPostgres() : onSqlite(db)));

export function messageById(db: Db | Tx, id: number): Maybe<MessageRow | undefined> {
  return actionStatements(db).byId(db, id);
}

