// Looking people up for the operator's command line (scripts/moderate.ts).
import { eq } from "drizzle-orm";
import { users, type UserRow } from "../storage/tables.ts";
import type { Db } from "../storage/index.ts";

/** Whatever the case it is typed in. */
export async function findByUsername(db: Db, username: string): Promise<UserRow | undefined> {
  return (await db.select().from(users).where(eq(users.usernameKey, username.toLowerCase())).limit(1))[0];
}
