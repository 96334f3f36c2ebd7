// The 18+ rule (API.md "Safety", Adult): calls and roulette need a recorded confirmation.
import { eq } from "drizzle-orm";
import { users, type UserRow } from "../storage/tables.ts";
import { transaction, type Db } from "../storage/index.ts";
import { AppError } from "../http/errors.ts";
import { forgetUser } from "./cache.ts";

export function requireAdult(user: Pick<UserRow, "adultConfirmedAt">): void {
  if (user.adultConfirmedAt !== null) return;
  throw new AppError(403, "adult_confirmation_required", "Please confirm that you are 18 or older first");
}

/** Records the confirmation once; a later call keeps the first time. */
export async function confirmAdult(db: Db, userId: number, at: number): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
  if (!row || row.adultConfirmedAt !== null) return row;
  const [updated] = await transaction(db, (tx) => tx.update(users).set({ adultConfirmedAt: at }).where(eq(users.id, userId)).returning());
  forgetUser(db, userId);
  return updated;
}
