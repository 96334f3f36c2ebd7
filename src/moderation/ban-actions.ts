// Ban, unban, and the decision on an appeal. Each runs its writes and its audit row in one
// transaction, then acts on the open connections (effects.ts).
import { and, desc, eq, isNotNull } from "drizzle-orm";
import { appeals, banDevices, bans, sessions, type BanRow } from "../storage/tables.ts";
import type { AppContext } from "../context.ts";
import { AppError, notFound, validationError } from "../http/errors.ts";
import { assertMayActOn, checkActor, requireReason, requireTarget, type Actor, type BanDays } from "./actor.ts";
import { writeAudit } from "./audit.ts";
import { activeBan, closeAppealsOf, liftBan, mirrorBan } from "./bans.ts";
import { expelBanned } from "./effects.ts";
import { assertAbout, closeReports, loadReports, reportIdList } from "./report-closing.ts";
import { transaction } from "../storage/index.ts";

export const BAN_DAYS: readonly BanDays[] = [1, 7, 30, null];
const DAY_MS = 86_400_000;

export interface BanOptions {
  days: BanDays;
  reason: string;
  banAddress: boolean;
}

type Ctx = Pick<AppContext, "db" | "hub" | "config">;

export async function banUser(ctx: Ctx, actor: Actor, userId: number, opts: BanOptions, reportIds?: number[]): Promise<BanRow> {
  const who = await checkActor(ctx.db, actor);
  if (!BAN_DAYS.includes(opts.days)) throw validationError({ days: "A ban lasts 1, 7 or 30 days, or is permanent" });
  const reason = requireReason(opts.reason);
  const target = await requireTarget(ctx.db, userId);
  assertMayActOn(who, target);
  const ids = reportIdList(reportIds);
  assertAbout(await loadReports(ctx.db, ids), target.id);
  const now = Date.now();

  const ban = await transaction(ctx.db, async (tx) => {
    // A new ban replaces one in force (a moderator making it longer or permanent).
    const replaced = await activeBan(tx, target.id, now);
    if (replaced) await liftBan(tx, replaced.id, who.id, "Replaced by a new ban", now);
    const [latest] = await tx
      .select({ addressHash: sessions.addressHash })
      .from(sessions)
      .where(and(eq(sessions.userId, target.id), isNotNull(sessions.addressHash)))
      .orderBy(desc(sessions.lastUsedAt))
      .limit(1);
    const addressHash = opts.banAddress ? (latest?.addressHash ?? null) : null;
    const [row] = await tx
      .insert(bans)
      .values({ userId: target.id, reason, until: opts.days === null ? null : now + opts.days * DAY_MS, createdAt: now, createdBy: who.id, addressHash })
      .returning();
    const devices = await tx
      .selectDistinct({ deviceId: sessions.deviceId })
      .from(sessions)
      .where(and(eq(sessions.userId, target.id), isNotNull(sessions.deviceId)));
    for (const { deviceId } of devices) if (deviceId) await tx.insert(banDevices).values({ banId: row!.id, deviceId }).onConflictDoNothing();
    await mirrorBan(tx, target.id, now);
    await closeReports(tx, ids, "actioned", who.id, now);
    await writeAudit(tx, {
      at: now,
      actorId: who.id,
      action: "ban",
      targetUserId: target.id,
      reportIds: ids,
      reason,
      detail: {
        ban_id: row!.id,
        days: opts.days,
        until: row!.until,
        address_banned: addressHash !== null,
        ...(opts.banAddress && addressHash === null ? { address_unknown: true } : {}),
        devices: devices.length,
        ...(replaced ? { replaced_ban_id: replaced.id } : {}),
      },
    });
    return row!;
  });

  await expelBanned(ctx, ban);
  return ban;
}

export async function unbanUser(ctx: Ctx, actor: Actor, userId: number, reason: string): Promise<void> {
  const who = await checkActor(ctx.db, actor);
  const why = requireReason(reason);
  const target = await requireTarget(ctx.db, userId);
  assertMayActOn(who, target);
  const now = Date.now();
  await transaction(ctx.db, async (tx) => {
    const lifted: number[] = [];
    for (let ban = await activeBan(tx, target.id, now); ban; ban = await activeBan(tx, target.id, now)) {
      await liftBan(tx, ban.id, who.id, why, now);
      await closeAppealsOf(tx, ban.id, who.id, why, now);
      lifted.push(ban.id);
    }
    if (lifted.length === 0) throw notFound("This user is not banned");
    await mirrorBan(tx, target.id, now);
    await writeAudit(tx, { at: now, actorId: who.id, action: "unban", targetUserId: target.id, reason: why, detail: { ban_ids: lifted } });
  });
}

export interface AppealDecision {
  lift: boolean;
  response: string;
}

export async function decideAppeal(ctx: Ctx, actor: Actor, appealId: number, opts: AppealDecision): Promise<void> {
  const who = await checkActor(ctx.db, actor);
  const response = requireReason(opts.response, "response");
  if (typeof opts.lift !== "boolean") throw validationError({ lift: "Choose to uphold or lift the ban" });
  const appeal = Number.isSafeInteger(appealId) ? (await ctx.db.select().from(appeals).where(eq(appeals.id, appealId)).limit(1))[0] : undefined;
  if (!appeal) throw notFound("Appeal not found");
  const decided = () => new AppError(409, "appeal_decided", "This appeal has already been decided");
  if (appeal.status !== "open") throw decided();
  const target = await requireTarget(ctx.db, appeal.userId);
  assertMayActOn(who, target);
  const now = Date.now();
  await transaction(ctx.db, async (tx) => {
    // Still open: another moderator may have decided it while this one was checked.
    const changed = await tx
      .update(appeals)
      .set({ status: opts.lift ? "lifted" : "upheld", response, decidedAt: now, decidedBy: who.id })
      .where(and(eq(appeals.id, appeal.id), eq(appeals.status, "open")))
      .returning({ id: appeals.id });
    if (changed.length === 0) throw decided();
    if (opts.lift) {
      await liftBan(tx, appeal.banId, who.id, response, now);
      await mirrorBan(tx, target.id, now);
    }
    await writeAudit(tx, {
      at: now,
      actorId: who.id,
      action: opts.lift ? "lift_appeal" : "uphold_appeal",
      targetUserId: target.id,
      reason: response,
      detail: { appeal_id: appeal.id, ban_id: appeal.banId },
    });
  });
}
