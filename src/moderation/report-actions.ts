// Dismissing reports (nothing to act on) and deleting one (admins only; the way under-18 reports,
// which retention keeps, are finally removed).
import { eq } from "drizzle-orm";
import { reports } from "../storage/tables.ts";
import type { AppContext } from "../context.ts";
import { AppError, notFound, validationError } from "../http/errors.ts";
import { assertMayActOn, checkActor, requireAdmin, requireReason, requireTarget, type Actor } from "./actor.ts";
import { writeAudit } from "./audit.ts";
import { deleteStill } from "./files.ts";
import { closeReports, loadReports, reportIdList } from "./report-closing.ts";
import { transaction } from "../storage/index.ts";

type Ctx = Pick<AppContext, "db" | "config">;

/** Every listed report must be about one person, who is the audit row's target. */
export async function dismissReports(ctx: Ctx, actor: Actor, reportIds: number[], reason: string): Promise<void> {
  const who = await checkActor(ctx.db, actor);
  const why = requireReason(reason);
  const ids = reportIdList(reportIds);
  if (ids.length === 0) throw validationError({ reportIds: "Choose at least one report" });
  const rows = await loadReports(ctx.db, ids);
  const reported = new Set(rows.map((r) => r.reportedId));
  if (reported.size > 1) throw validationError({ reportIds: "Dismiss reports about one person at a time" });
  const target = await requireTarget(ctx.db, rows[0]!.reportedId);
  assertMayActOn(who, target);
  const now = Date.now();
  await transaction(ctx.db, async (tx) => {
    await closeReports(tx, ids, "dismissed", who.id, now);
    await writeAudit(tx, { at: now, actorId: who.id, action: "dismiss", targetUserId: target.id, reportIds: ids, reason: why });
  });
}

/** Only a closed report: an open one must be decided first, so nothing is deleted unread. */
export async function deleteReport(ctx: Ctx, actor: Actor, reportId: number): Promise<void> {
  const who = await checkActor(ctx.db, actor);
  requireAdmin(who);
  const report = Number.isSafeInteger(reportId) ? (await ctx.db.select().from(reports).where(eq(reports.id, reportId)).limit(1))[0] : undefined;
  const missing = () => notFound("Report not found");
  if (!report) throw missing();
  if (report.status === "open") throw new AppError(400, "validation", "Dismiss or act on this report before deleting it");
  const now = Date.now();
  await transaction(ctx.db, async (tx) => {
    // Still there: another admin may have deleted it while this one was checked.
    if ((await tx.delete(reports).where(eq(reports.id, report.id)).returning({ id: reports.id })).length === 0) throw missing();
    await writeAudit(tx, {
      at: now,
      actorId: who.id,
      action: "delete_report",
      targetUserId: report.reportedId,
      reportIds: [report.id],
      detail: { reason: report.reason, context: report.context, reporter_id: report.reporterId, had_still: report.evidencePath !== null },
    });
  });
  deleteStill(ctx.config, report.evidencePath);
}
