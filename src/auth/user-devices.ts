// Which browsers (device cookies, device.ts) each account used, kept apart from sessions because
// sessions are deleted on logout and expiry. A new account made from a browser that earlier
// accounts used carries them (issue 18, item 5): blocks against them and their roulette
// suspension apply to it too, as a ban keeps its devices from making new accounts.
import { and, desc, eq, inArray, isNotNull, notInArray } from "drizzle-orm";
import { userDevices, users } from "../storage/tables.ts";
import type { BlockRegistry } from "../blocks/registry.ts";
import { transaction, type Db } from "../storage/index.ts";

/** Browsers remembered per account, newest kept: enough for a person's phones and computers. */
export const MAX_DEVICES_PER_USER = 20;
/**
 * Earlier accounts a new one carries, the most recently seen on its browser first (theirs
 * included): bounded work at sign-up and on every block check, whatever one browser made before.
 */
export const MAX_CARRIERS = 16;

/** Called with every new session: the browser is this account's, seen now. */
export async function recordDevice(db: Db, userId: number, deviceId: string | null, now = Date.now()): Promise<void> {
  if (!deviceId) return;
  await transaction(db, (tx) => tx
    .insert(userDevices)
    .values({ userId, deviceId, lastSeenAt: now })
    .onConflictDoUpdate({ target: [userDevices.userId, userDevices.deviceId], set: { lastSeenAt: now } }));
  // The newest are chosen in the same statement that deletes the rest: a device another session of
  // the user records meanwhile is never deleted for missing from a list read before it.
  const keep = db
    .select({ deviceId: userDevices.deviceId })
    .from(userDevices)
    .where(eq(userDevices.userId, userId))
    .orderBy(desc(userDevices.lastSeenAt))
    .limit(MAX_DEVICES_PER_USER);
  await transaction(db, (tx) => tx.delete(userDevices).where(and(eq(userDevices.userId, userId), notInArray(userDevices.deviceId, keep))));
}

/**
 * A new account (register or guest) made from `deviceId`: it carries the accounts seen on that
 * browser before, and what they carry. Past MAX_CARRIERS, accounts under a block or a roulette
 * suspension now are kept first, so making throwaway accounts in the browser cannot push the one
 * that matters out.
 */
export async function carryDevice(ctx: { db: Db; blocks: BlockRegistry }, userId: number, deviceId: string | null): Promise<void> {
  if (!deviceId) return;
  const seen = await ctx.db
    .select({ userId: userDevices.userId })
    .from(userDevices)
    .where(eq(userDevices.deviceId, deviceId))
    .orderBy(desc(userDevices.lastSeenAt))
    // The new account's own first session may already be recorded: one more, then left out.
    .limit(MAX_CARRIERS + 1);
  const earlier = seen.map((row) => row.userId).filter((id) => id !== userId);
  if (earlier.length === 0) return;
  // At most MAX_CARRIERS + 1 accounts and what each carries (MAX_CARRIERS each): bounded.
  const candidates = new Set(earlier);
  for (const id of earlier) for (const theirs of ctx.blocks.carriersOf(id)) candidates.add(theirs);
  candidates.delete(userId);
  const suspendedRows = await ctx.db
    .select({ id: users.id })
    .from(users)
    .where(and(inArray(users.id, [...candidates]), isNotNull(users.rouletteSuspendedAt)));
  const suspended = new Set(suspendedRows.map((row) => row.id));
  const matters = (id: number) => ctx.blocks.isBlocked(id) || suspended.has(id);
  const all = [...candidates];
  const ordered = [...all.filter(matters), ...all.filter((id) => !matters(id))];
  await ctx.blocks.link(userId, ordered.slice(0, MAX_CARRIERS));
}
