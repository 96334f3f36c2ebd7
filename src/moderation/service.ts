// Bans, as the terms promise: a banned user's sessions end at once and login answers 403
// `banned` until the ban ends (never, for a permanent one).
import { eq } from "drizzle-orm";
import { users, type UserRow } from "../../db/schema.ts";
import { revokeUserSessions } from "../auth/service.ts";
import type { Db } from "../db.ts";

export function findByUsername(db: Db, username: string): UserRow | undefined {
  return db.select().from(users).where(eq(users.usernameKey, username.toLowerCase())).get();
}

/** Bans until `until` (ms) or forever with null; returns the sessions that were ended. */
export function ban(db: Db, userId: number, until: number | null): string[] {
  db.update(users).set({ banned: true, bannedUntil: until }).where(eq(users.id, userId)).run();
  return revokeUserSessions(db, userId);
}

export function unban(db: Db, userId: number): void {
  db.update(users).set({ banned: false, bannedUntil: null }).where(eq(users.id, userId)).run();
}
