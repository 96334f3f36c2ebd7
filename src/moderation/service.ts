// Looking people up for the operator's command line (scripts/moderate.ts).
import { eq } from "drizzle-orm";
import { users, type UserRow } from "../../db/schema.ts";
import type { Db } from "../db.ts";

/** Whatever the case it is typed in. */
export function findByUsername(db: Db, username: string): UserRow | undefined {
  return db.select().from(users).where(eq(users.usernameKey, username.toLowerCase())).get();
}
