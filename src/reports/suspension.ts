// Applies the weight rule (weights.ts) after a severe report: sets users.roulette_suspended_at and
// takes the user out of roulette at once. Dismissed reports no longer count; reporters sharing a
// network or a device (where they reported or signed in from) count once, and reports without
// contact not at all (weights.ts). A suspension also follows the person's browser (issue 18):
// accounts made from it since are suspended alike.
import { and, eq, gt, gte, inArray, isNotNull, isNull, ne, or } from "drizzle-orm";
import { reports, sessions, users } from "../storage/tables.ts";
import type { AppContext } from "../context.ts";
import { engine, transaction } from "../storage/index.ts";
import { leaveRoulette, suspendedError } from "../realtime/handlers/roulette.ts";
import { SEVERE_REASONS } from "./model.ts";
import { reachesSuspension, SUSPENSION_WINDOW_MS, voiceWeights } from "./weights.ts";
import { forgetUser } from "../users/cache.ts";

/** True when this call suspended the user. */
export async function checkSuspension(ctx: AppContext, reportedId: number, now: number): Promise<boolean> {
  const rows = await ctx.db
    .select({ reporterId: reports.reporterId, weight: reports.weight, addressHash: reports.reporterAddressHash, deviceId: reports.reporterDeviceId })
    .from(reports)
    .where(
      and(
        eq(reports.reportedId, reportedId),
        inArray(reports.reason, [...SEVERE_REASONS]),
        ne(reports.status, "dismissed"),
        gte(reports.createdAt, now - SUSPENSION_WINDOW_MS),
      ),
    );
  const threshold = ctx.config.reportAutoSuspend;
  // Joining reporters by where they signed in only ever makes fewer voices: read sessions only
  // when the reports alone would suspend.
  if (!reachesSuspension(voiceWeights(rows), threshold)) return false;
  const reporterIds = [...new Set(rows.filter((row) => row.weight > 0).map((row) => row.reporterId))];
  const signIns = await ctx.db
    .select({ userId: sessions.userId, addressHash: sessions.addressHash, deviceId: sessions.deviceId })
    .from(sessions)
    .where(inArray(sessions.userId, reporterIds));
  if (!reachesSuspension(voiceWeights(rows, signIns), threshold)) return false;
  const changed = await transaction(ctx.db, (tx) => tx
    .update(users)
    .set({ rouletteSuspendedAt: now })
    .where(and(eq(users.id, reportedId), isNull(users.rouletteSuspendedAt)))
    .returning({ id: users.id }));
  forgetUser(ctx.db, reportedId);
  if (changed.length === 0) return false;
  endSearch(ctx, reportedId);
  // Accounts made from the suspended person's browsers since are suspended alike (carriedSuspension).
  for (const made of ctx.blocks.carriedBy(reportedId)) endSearch(ctx, made);
  return true;
}

/** Out of roulette now, told as a search refused for suspension would tell it. */
function endSearch(ctx: AppContext, userId: number): void {
  const socket = ctx.roulette.socketOf(userId);
  if (socket) {
    const error = suspendedError();
    ctx.hub.send(socket, "error", { code: error.code, message: error.message, event: "roulette_search" });
  }
  leaveRoulette(ctx, userId, "roulette_partner_disconnected");
}

/** Whether one of `carriers` is suspended from roulette at `now`: the query, for either engine. */
const suspendedAmong = (ctx: Pick<AppContext, "db">, carriers: readonly number[], now: number) =>
  ctx.db
    .select({ id: users.id })
    .from(users)
    .where(
      and(
        inArray(users.id, [...carriers]),
        isNotNull(users.rouletteSuspendedAt),
        or(isNull(users.rouletteSuspendedUntil), gt(users.rouletteSuspendedUntil, now)),
      ),
    )
    .limit(1);

/**
 * Whether an earlier account of the browser `userId` was made from is suspended from roulette
 * now (read live, so a moderator lifting it lifts this too). Answered with the automatic
 * suspension's words, never the earlier account's reason: a shared browser must not show
 * someone else's, and the new account must not learn that this is why.
 *
 * roulette_search checks it and joins the queue in the same turn, so a socket closing (or
 * stopping its search) meanwhile cannot leave an entry behind. So the answer is at once whenever
 * it can be: false for an account without carriers (nearly all), and always on SQLite (one
 * synchronous read); only on PostgreSQL, for an account with carriers, is it a promise, and the
 * handler checks after it that the search still stands.
 */
export function carriedSuspension(ctx: Pick<AppContext, "db" | "blocks">, userId: number, now = Date.now()): boolean | Promise<boolean> {
  const carriers = ctx.blocks.carriersOf(userId);
  if (carriers.length === 0) return false;
  const query = suspendedAmong(ctx, carriers, now);
  if (engine === "sqlite") return query.get() !== undefined;
  return query.then((rows) => rows.length > 0);
}
