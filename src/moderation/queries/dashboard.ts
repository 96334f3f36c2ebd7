// The numbers on the console's home page: how much waits, how old the oldest is, and how fast
// moderators act. Each is one aggregate query; the median reads only the middle row or two.
import { and, count, eq, gte, isNotNull, isNull, or, sql, type SQL } from "drizzle-orm";
import { appeals, bans, reports } from "../../storage/tables.ts";
import type { Db } from "../../storage/index.ts";

const DAY = 24 * 60 * 60_000;

export interface DashboardStats {
  openReports: number;
  oldestOpenAt: number | null;
  reportsLastDay: number;
  activeBans: number;
  openAppeals: number;
  /** Median of first_action_at - created_at over reports first acted on in the last 7 days. */
  medianToActionMs: number | null;
  actedLastWeek: number;
}

/** A ban in force: not lifted, and permanent or not yet over. */
export const banRuns = (now: number): SQL => and(isNull(bans.liftedAt), or(isNull(bans.until), sql`${bans.until} > ${now}`)) ?? sql`0`;

export async function dashboardStats(db: Db, now: number): Promise<DashboardStats> {
  const [open] = await db.select({ n: count(), oldest: sql<number | null>`min(${reports.createdAt})`.mapWith(Number) }).from(reports).where(eq(reports.status, "open"));
  const [lastDay] = await db.select({ n: count() }).from(reports).where(gte(reports.createdAt, now - DAY));
  const [activeBans] = await db.select({ n: count() }).from(bans).where(banRuns(now));
  const [openAppeals] = await db.select({ n: count() }).from(appeals).where(eq(appeals.status, "open"));
  const acted = and(isNotNull(reports.firstActionAt), gte(reports.firstActionAt, now - 7 * DAY));
  const actedCount = (await db.select({ n: count() }).from(reports).where(acted))[0]?.n ?? 0;
  // The median without loading the week: the middle row (or the two middle rows) by duration.
  let median: number | null = null;
  if (actedCount > 0) {
    const duration = sql<number>`${reports.firstActionAt} - ${reports.createdAt}`.mapWith(Number);
    const middle = await db
      .select({ d: duration })
      .from(reports)
      .where(acted)
      .orderBy(duration)
      .limit(actedCount % 2 === 0 ? 2 : 1)
      .offset(Math.floor((actedCount - 1) / 2));
    median = middle.reduce((sum, row) => sum + row.d, 0) / middle.length;
  }
  return {
    openReports: open?.n ?? 0,
    oldestOpenAt: open?.oldest ?? null,
    reportsLastDay: lastDay?.n ?? 0,
    activeBans: activeBans?.n ?? 0,
    openAppeals: openAppeals?.n ?? 0,
    medianToActionMs: median,
    actedLastWeek: actedCount,
  };
}

