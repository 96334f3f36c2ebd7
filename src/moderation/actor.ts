// Who is acting, checked against the database (a stale Actor from a demoted moderator is refused),
// and the rules every action shares: a reason of 1 to 1000 characters, and nobody acts on
// themselves or on someone of equal or higher rank (only the command line outranks an admin).
import { eq } from "drizzle-orm";
import { users, type UserRow } from "../storage/tables.ts";
import type { Db } from "../storage/index.ts";
import { AppError, forbidden, notFound, validationError } from "../http/errors.ts";

/** id null: the command line (scripts/moderate.ts). */
export interface Actor {
  id: number | null;
  role: "moderator" | "admin" | "cli";
}

/** null: permanent. */
export type BanDays = 1 | 7 | 30 | null;

export type Role = "user" | "moderator" | "admin";

export const ROLES: readonly Role[] = ["user", "moderator", "admin"];

const rankOf = (role: string): number => (role === "cli" ? 3 : role === "admin" ? 2 : role === "moderator" ? 1 : 0);

export interface CheckedActor {
  id: number | null;
  role: Actor["role"];
  rank: number;
}

export const MAX_REASON = 1000;

/** The actor as the database knows them now; 403 unless a moderator, an admin or the command line. */
export async function checkActor(db: Db, actor: Actor): Promise<CheckedActor> {
  if (actor.role === "cli") {
    if (actor.id !== null) throw forbidden("Only the command line acts without an account");
    return { id: null, role: "cli", rank: rankOf("cli") };
  }
  if (actor.id === null) throw forbidden("Only the command line acts without an account");
  const [row] = await db.select({ role: users.role }).from(users).where(eq(users.id, actor.id)).limit(1);
  if (!row || (row.role !== "moderator" && row.role !== "admin")) throw forbidden("Only moderators can do this");
  return { id: actor.id, role: row.role, rank: rankOf(row.role) };
}

export function requireAdmin(actor: CheckedActor): void {
  if (actor.rank < rankOf("admin")) throw forbidden("Only administrators can do this");
}

export async function requireTarget(db: Db, userId: number): Promise<UserRow> {
  const row = Number.isSafeInteger(userId) ? (await db.select().from(users).where(eq(users.id, userId)).limit(1))[0] : undefined;
  if (!row) throw notFound("User not found");
  return row;
}

/** Nobody moderates themselves; a moderator cannot act on moderators or admins, an admin not on admins. */
export function assertMayActOn(actor: CheckedActor, target: Pick<UserRow, "id" | "role">): void {
  if (actor.id === target.id) throw new AppError(403, "forbidden", "You cannot take moderation action on your own account");
  if (rankOf(target.role) >= actor.rank) {
    throw forbidden(actor.role === "admin" ? "Only the command line can act on another administrator" : "Moderators cannot act on moderators or administrators");
  }
}

/** Trimmed, 1 to 1000 characters: the user reads it as the statement of reasons. */
export function requireReason(reason: unknown, field = "reason", message = `Give a reason of 1 to ${MAX_REASON} characters`): string {
  const text = typeof reason === "string" ? reason.trim() : "";
  if (text.length < 1 || text.length > MAX_REASON) throw validationError({ [field]: message });
  return text;
}
