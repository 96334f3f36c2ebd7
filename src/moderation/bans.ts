// Bans in the database: the one in force for a user, the mirror in users.banned / banned_until
// (which every session check reads), lifting, and the bans a new visitor's device or address
// falls under.
import { and, desc, eq, gt, isNull, or, sql } from "drizzle-orm";
import { appeals, banDevices, bans, users, type BanRow } from "../storage/tables.ts";
import { transaction, type Db, type Tx } from "../storage/index.ts";
import { AppError } from "../http/errors.ts";
import type { BanNotice } from "../realtime/protocol.ts";
import { iso, isoOrNull } from "../time.ts";
import { appealUrl } from "./appeal-token.ts";
import { forgetUser } from "../users/cache.ts";

/** Not lifted and not over. */
const running = (now: number) => and(isNull(bans.liftedAt), or(isNull(bans.until), gt(bans.until, now)));

/**
 * The ban in force for a user: the one that ends last (a permanent one first), or undefined.
 * Ban, unban and mirrorBan read it inside their transactions: give it their `tx` there.
 */
export async function activeBan(db: Db | Tx, userId: number, now = Date.now()): Promise<BanRow | undefined> {
  const [ban] = await db
    .select()
    .from(bans)
    .where(and(eq(bans.userId, userId), running(now)))
    .orderBy(sql`${bans.until} IS NULL DESC`, desc(bans.until), desc(bans.id))
    .limit(1);
  return ban;
}

export const isRunning = (ban: Pick<BanRow, "liftedAt" | "until">, now = Date.now()): boolean =>
  ban.liftedAt === null && (ban.until === null || ban.until > now);

export function banNotice(ctx: { config: { secret: string } }, ban: BanRow): BanNotice {
  return { reason: ban.reason, until: isoOrNull(ban.until), appeal_url: appealUrl(ctx.config.secret, ban.id) };
}

/** users.banned / banned_until follow the ban in force (or none), so existing checks stay right. */
export async function mirrorBan(db: Tx, userId: number, now = Date.now()): Promise<void> {
  const ban = await activeBan(db, userId, now);
  await db
    .update(users)
    .set({ banned: ban !== undefined, bannedUntil: ban?.until ?? null })
    .where(eq(users.id, userId));
  forgetUser(db, userId);
}

/** Lifts one ban: who, why and when; its address hash is forgotten at once. */
export async function liftBan(db: Tx, banId: number, by: number | null, reason: string, now: number): Promise<void> {
  await db
    .update(bans)
    .set({ liftedAt: now, liftedBy: by, liftReason: reason, addressHash: null })
    .where(and(eq(bans.id, banId), isNull(bans.liftedAt)));
}

/** Open appeals of a lifted ban are answered with the lift, so the user reads why. */
export async function closeAppealsOf(db: Tx, banId: number, by: number | null, response: string, now: number): Promise<void> {
  await db
    .update(appeals)
    .set({ status: "lifted", response, decidedAt: now, decidedBy: by })
    .where(and(eq(appeals.banId, banId), eq(appeals.status, "open")));
}

export interface Origin {
  deviceId: string | null;
  addressHash: string | null;
}

/** A running ban that covers this device or, when the moderator chose it, this address. */
export async function banOnOrigin(db: Db, origin: Origin, now = Date.now()): Promise<{ ban: BanRow; by: "device" | "address" } | undefined> {
  if (origin.deviceId) {
    const [row] = await db
      .select({ ban: bans })
      .from(banDevices)
      .innerJoin(bans, eq(bans.id, banDevices.banId))
      .where(and(eq(banDevices.deviceId, origin.deviceId), running(now)))
      .orderBy(sql`${bans.until} IS NULL DESC`, desc(bans.until))
      .limit(1);
    if (row) return { ban: row.ban, by: "device" };
  }
  if (origin.addressHash) {
    const [ban] = await db
      .select()
      .from(bans)
      .where(and(eq(bans.addressHash, origin.addressHash), running(now)))
      .orderBy(sql`${bans.until} IS NULL DESC`, desc(bans.until))
      .limit(1);
    if (ban) return { ban, by: "address" };
  }
  return undefined;
}

/** Adds a device to a ban (a banned user signing in from another browser); repeats are ignored. */
export async function addBanDevice(db: Db, banId: number, deviceId: string): Promise<void> {
  await transaction(db, (tx) => tx.insert(banDevices).values({ banId, deviceId }).onConflictDoNothing());
}

/**
 * The 403 `banned` answer (API.md "General" and "Moderation"). `reason` only for the account
 * holder or their own device: people sharing a banned address must not read someone else's reason.
 */
export function bannedError(secret: string, ban: BanRow, withReason: boolean): AppError {
  const until = isoOrNull(ban.until);
  const message = withReason
    ? `This account is banned ${until ? `until ${iso(ban.until!)}` : "permanently"}. Reason: ${ban.reason}`
    : `New accounts cannot be made from here ${until ? `until ${until}` : "for now"}: an account on this device or network is banned.`;
  return new AppError(403, "banned", message, {
    until,
    ...(withReason ? { reason: ban.reason } : {}),
    appeal_url: appealUrl(secret, ban.id),
  });
}
