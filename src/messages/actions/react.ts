// Reactions: one per person per message, one of the quick reactions; the same emoji again
// removes it, another replaces it.
import type { MessageRow } from "../../storage/tables.ts";
import { transaction, type Db } from "../../storage/index.ts";
import { validationError } from "../../http/errors.ts";
import { QUICK_REACTIONS } from "../../realtime/protocol.ts";
import { assertLive, messageOfConversation } from "./lookup.ts";
import { actionStatements } from "./statements.ts";

const allowed = new Set<string>(QUICK_REACTIONS);

/** The quick reaction `emoji` names, accepting the heart without its emoji presentation selector. */
export function quickReaction(emoji: string): string {
  const normal = emoji === "❤" ? "❤️" : emoji;
  if (!allowed.has(normal)) throw validationError({ emoji: `React with one of ${QUICK_REACTIONS.join(" ")}` });
  return normal;
}

/** Stores the reaction (or its removal); answers the message and the user's reaction now (null: none). */
export async function toggleReaction(
  db: Db,
  userId: number,
  messageId: number,
  rawEmoji: string,
  now: number,
  admit: (row: MessageRow) => void,
): Promise<{ row: MessageRow; emoji: string | null }> {
  const emoji = quickReaction(rawEmoji);
  const prepared = actionStatements(db);
  // Checked, read and written in one transaction, so two tabs toggling at once end in one state.
  return transaction(db, async (tx) => {
    const row = await messageOfConversation(tx, userId, messageId);
    assertLive(row);
    admit(row);
    const current = await prepared.reactionOf(tx, row.id, userId);
    if (current === emoji) {
      await prepared.removeReaction(tx, row.id, userId);
      return { row, emoji: null };
    }
    await prepared.setReaction(tx, row.id, userId, emoji, now);
    return { row, emoji };
  });
}
