// Closing the reports an action answers: every id must name a report about the user acted on;
// open ones become "actioned" (or "dismissed") with who closed them and when. Reports closed
// earlier keep their first outcome.
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { reports, type ReportRow } from "../storage/tables.ts";
import type { Db, Tx } from "../storage/index.ts";
import { notFound, validationError } from "../http/errors.ts";

/** One action closes at most this many reports (a console page shows fewer). */
export const MAX_REPORTS_PER_ACTION = 100;

/** The distinct ids, checked for shape and count. */
export function reportIdList(reportIds: readonly number[] | undefined): number[] {
  if (reportIds === undefined) return [];
  if (!Array.isArray(reportIds) || !reportIds.every((id) => Number.isSafeInteger(id) && id > 0)) {
    throw validationError({ reportIds: "Report ids must be positive whole numbers" });
  }
  const unique = [...new Set(reportIds)];
  if (unique.length > MAX_REPORTS_PER_ACTION) throw validationError({ reportIds: `At most ${MAX_REPORTS_PER_ACTION} reports in one action` });
  return unique;
}

export async function loadReports(db: Db, ids: readonly number[]): Promise<ReportRow[]> {
  if (ids.length === 0) return [];
  const rows = await db.select().from(reports).where(inArray(reports.id, [...ids]));
  const missing = ids.filter((id) => !rows.some((r) => r.id === id));
  if (missing.length > 0) throw notFound(`Report ${missing[0]} not found`);
  return rows;
}

/** 400 unless every report is about `userId`. */
export function assertAbout(rows: readonly ReportRow[], userId: number): void {
  const other = rows.find((r) => r.reportedId !== userId);
  if (other) throw validationError({ reportIds: `Report ${other.id} is about someone else` });
}

export async function closeReports(db: Tx, ids: readonly number[], status: "actioned" | "dismissed", actorId: number | null, now: number): Promise<void> {
  if (ids.length === 0) return;
  await db
    .update(reports)
    .set({ status, closedAt: now, closedBy: actorId, updatedAt: now, firstActionAt: sql`coalesce(${reports.firstActionAt}, ${now})` })
    .where(and(inArray(reports.id, [...ids]), eq(reports.status, "open"), isNull(reports.closedAt)));
}
