// Actions on a person short of a ban: warn, suspend from roulette (and lift it), end their
// sessions now, and change their role (admins and the command line only).
import { and, eq } from "drizzle-orm";
import { users, warnings, type WarningRow } from "../storage/tables.ts";
import type { AppContext } from "../context.ts";
import { AppError, busy, validationError } from "../http/errors.ts";
import { leaveRoulette, suspendedError } from "../realtime/handlers/roulette.ts";
import { assertMayActOn, checkActor, requireAdmin, requireReason, requireTarget, ROLES, type Actor, type Role } from "./actor.ts";
import { writeAudit } from "./audit.ts";
import { expelSessions } from "./effects.ts";
import { assertAbout, closeReports, loadReports, reportIdList } from "./report-closing.ts";
import { toWarningNotice } from "./warnings.ts";
import { forgetUser } from "../users/cache.ts";
import { transaction } from "../storage/index.ts";

type Ctx = AppContext;

/** A year: longer than that is what "until lifted" is for. */
export const MAX_SUSPENSION_HOURS = 24 * 365;

export async function warnUser(ctx: Ctx, actor: Actor, userId: number, reason: string, reportIds?: number[]): Promise<WarningRow> {
  const who = await checkActor(ctx.db, actor);
  const why = requireReason(reason);
  const target = await requireTarget(ctx.db, userId);
  assertMayActOn(who, target);
  const ids = reportIdList(reportIds);
  assertAbout(await loadReports(ctx.db, ids), target.id);
  const now = Date.now();
  const row = await transaction(ctx.db, async (tx) => {
    const [warning] = await tx.insert(warnings).values({ userId: target.id, reason: why, createdAt: now, createdBy: who.id }).returning();
    await closeReports(tx, ids, "actioned", who.id, now);
    await writeAudit(tx, { at: now, actorId: who.id, action: "warn", targetUserId: target.id, reportIds: ids, reason: why, detail: { warning_id: warning!.id } });
    return warning!;
  });
  ctx.hub.sendToUser(target.id, "warning", toWarningNotice(row));
  return row;
}

export interface SuspensionOptions {
  /** null: until a moderator lifts it. */
  hours: number | null;
  reason: string;
}

export async function suspendRoulette(ctx: Ctx, actor: Actor, userId: number, opts: SuspensionOptions, reportIds?: number[]): Promise<void> {
  const who = await checkActor(ctx.db, actor);
  if (opts.hours !== null && !(Number.isSafeInteger(opts.hours) && opts.hours >= 1 && opts.hours <= MAX_SUSPENSION_HOURS)) {
    throw validationError({ hours: `Suspend for 1 to ${MAX_SUSPENSION_HOURS} hours, or until lifted` });
  }
  const why = requireReason(opts.reason);
  const target = await requireTarget(ctx.db, userId);
  assertMayActOn(who, target);
  const ids = reportIdList(reportIds);
  assertAbout(await loadReports(ctx.db, ids), target.id);
  const now = Date.now();
  const until = opts.hours === null ? null : now + opts.hours * 3_600_000;
  await transaction(ctx.db, async (tx) => {
    // Replaces the automatic suspension (or an earlier one) with the moderator's own terms.
    await tx.update(users).set({ rouletteSuspendedAt: now, rouletteSuspendedUntil: until, rouletteSuspensionReason: why }).where(eq(users.id, target.id));
    await closeReports(tx, ids, "actioned", who.id, now);
    await writeAudit(tx, { at: now, actorId: who.id, action: "suspend_roulette", targetUserId: target.id, reportIds: ids, reason: why, detail: { hours: opts.hours, until } });
  });
  // After the commit: a read in between must not cache the row as it was.
  forgetUser(ctx.db, target.id);
  const socket = ctx.roulette.socketOf(target.id);
  if (socket) {
    const error = suspendedError({ until, reason: why });
    ctx.hub.send(socket, "error", { code: error.code, message: error.message, event: "roulette_search" });
  }
  leaveRoulette(ctx, target.id, "roulette_partner_disconnected");
}

export async function liftRouletteSuspension(ctx: Ctx, actor: Actor, userId: number, reason: string): Promise<void> {
  const who = await checkActor(ctx.db, actor);
  const why = requireReason(reason);
  const target = await requireTarget(ctx.db, userId);
  assertMayActOn(who, target);
  const notSuspended = () => new AppError(400, "validation", "This user is not suspended from Video Roulette");
  if (target.rouletteSuspendedAt === null) throw notSuspended();
  const now = Date.now();
  await transaction(ctx.db, async (tx) => {
    // Still the suspension checked (the audit row describes it): another moderator may have lifted
    // it meanwhile, and one lifting is one audit row.
    const changed = await tx
      .update(users)
      .set({ rouletteSuspendedAt: null, rouletteSuspendedUntil: null, rouletteSuspensionReason: null })
      .where(and(eq(users.id, target.id), eq(users.rouletteSuspendedAt, target.rouletteSuspendedAt!)))
      .returning({ id: users.id });
    if (changed.length === 0) throw notSuspended();
    await writeAudit(tx, {
      at: now,
      actorId: who.id,
      action: "lift_suspension",
      targetUserId: target.id,
      reason: why,
      detail: { was_automatic: target.rouletteSuspensionReason === null, until: target.rouletteSuspendedUntil },
    });
  });
  forgetUser(ctx.db, target.id);
}

export async function endSessions(ctx: Ctx, actor: Actor, userId: number, reason: string): Promise<void> {
  const who = await checkActor(ctx.db, actor);
  const why = requireReason(reason);
  const target = await requireTarget(ctx.db, userId);
  assertMayActOn(who, target);
  const now = Date.now();
  // Sessions go first, so a socket reconnecting in between is already refused.
  const ended = await expelSessions(ctx, target.id);
  await transaction(ctx.db, (tx) => writeAudit(tx, { at: now, actorId: who.id, action: "end_sessions", targetUserId: target.id, reason: why, detail: { sessions: ended } }));
}

const rank = (role: string) => ROLES.indexOf(role as Role);

/** How often setRole reads the role again when another change came between its check and its write. */
const ROLE_TRIES = 3;

export async function setRole(ctx: Ctx, actor: Actor, userId: number, role: Role): Promise<void> {
  const who = await checkActor(ctx.db, actor);
  requireAdmin(who);
  if (!ROLES.includes(role)) throw validationError({ role: "A role is user, moderator or admin" });
  for (let attempt = 0; attempt < ROLE_TRIES; attempt++) {
    const target = await requireTarget(ctx.db, userId);
    assertMayActOn(who, target);
    if (target.isGuest && role !== "user") throw validationError({ role: "A guest account cannot be a moderator or an admin" });
    if (target.role === role) return;
    const now = Date.now();
    // Written only over the role just read, so the audit row's "from" is true and a change made
    // twice at once is written (and audited) once; otherwise read again, as if run after the other.
    const written = await transaction(ctx.db, async (tx) => {
      const changed = await tx
        .update(users)
        .set({ role })
        .where(and(eq(users.id, target.id), eq(users.role, target.role)))
        .returning({ id: users.id });
      if (changed.length === 0) return false;
      await writeAudit(tx, {
        at: now,
        actorId: who.id,
        action: rank(role) > rank(target.role) ? "grant_role" : "revoke_role",
        targetUserId: target.id,
        detail: { from: target.role, to: role },
      });
      return true;
    });
    forgetUser(ctx.db, target.id);
    if (written) return;
  }
  throw busy("The role kept changing meanwhile; try again", 1);
}
