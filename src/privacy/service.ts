// Who may message and call a user: stored on the user row and mirrored in ContactRegistry.
import { eq } from "drizzle-orm";
import { users, type UserRow } from "../storage/tables.ts";
import { transaction, type Db } from "../storage/index.ts";
import { notFound } from "../http/errors.ts";
import type { AllowFrom } from "../realtime/protocol.ts";
import type { ContactRegistry } from "./contacts.ts";
import { forgetUser } from "../users/cache.ts";

export async function setAllowFrom(db: Db, contacts: ContactRegistry, userId: number, allowFrom: AllowFrom): Promise<UserRow> {
  const [row] = await transaction(db, (tx) => tx.update(users).set({ allowFrom }).where(eq(users.id, userId)).returning());
  forgetUser(db, userId);
  if (!row) throw notFound("User not found");
  await contacts.setAllowFrom(userId, allowFrom);
  return row;
}
