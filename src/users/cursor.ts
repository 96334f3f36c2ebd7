// Paging the people list by position, not by offset: a cursor names the last row shown (its place
// in the list's order: online, last_seen, id), and the next page starts right after it. Rows moving
// above or below it (someone coming online) therefore never shift the rest by one, and the query
// walks the presence index from that point instead of counting past every earlier row.
import { sql, type SQL } from "drizzle-orm";
import { users } from "../storage/tables.ts";

export interface UserCursor {
  online: boolean;
  lastSeen: number;
  id: number;
}

/** `1.1795421316364.42`: opaque to clients, plain enough to read in a log. */
export const CURSOR_PATTERN = "^[01]\\.[0-9]{1,15}\\.[1-9][0-9]{0,15}$";

export const encodeCursor = (c: UserCursor): string => `${c.online ? 1 : 0}.${c.lastSeen}.${c.id}`;

/** Only for a string that matched CURSOR_PATTERN (15 digits stay exact integers). */
export function decodeCursor(text: string): UserCursor {
  const [online, lastSeen, id] = text.split(".");
  return { online: online === "1", lastSeen: Number(lastSeen), id: Number(id) };
}

/**
 * Rows after the cursor in the list's order (online first, then newest last_seen, then highest id).
 * The flag is bound as the column binds it (1/0 on SQLite, a boolean on PostgreSQL, which
 * refuses to compare a boolean with an integer).
 */
export const afterCursor = (c: UserCursor): SQL =>
  sql`(${users.isOnline}, ${users.lastSeen}, ${users.id}) < (${sql.param(c.online, users.isOnline)}, ${c.lastSeen}, ${c.id})`;
