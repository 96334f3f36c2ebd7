// Read-only queries behind the console's report queue and report pages. Nothing here writes: the
// actions (../actions.ts) change rows and write the audit log; these only look. Every list is
// capped, so no page holds more than one page of rows in memory.
import { and, asc, count, desc, eq, inArray, isNull, sql, type SQL } from "drizzle-orm";
import { messages, reports, users } from "../../storage/tables.ts";
import { alias, type Db } from "../../storage/index.ts";
import type { ReportReason } from "../../reports/model.ts";

export const PAGE_SIZE = 50;

export const reportStatuses = ["open", "dismissed", "actioned"] as const;
export type ReportStatus = (typeof reportStatuses)[number];
export type StatusFilter = ReportStatus | "all";

export interface QueueFilter {
  reason: ReportReason | null;
  status: StatusFilter;
  page: number;
}

export interface QueueRow {
  id: number;
  reason: string;
  context: string;
  status: string;
  details: string;
  createdAt: number;
  hasEvidence: boolean;
  reporterId: number;
  reporterName: string;
  reportedId: number;
  reportedName: string;
  /** Distinct people with an open report against the reported user. */
  reporters: number;
}

export interface Paged<T> {
  rows: T[];
  total: number;
  page: number;
  pages: number;
}

export const pageCount = (total: number): number => Math.max(1, Math.ceil(total / PAGE_SIZE));

const reporter = alias(users, "reporter");
const reported = alias(users, "reported");

/** Open first; "appears to be under 18" on top; then the most-reported people; then oldest. */
export async function reportQueue(db: Db, filter: QueueFilter): Promise<Paged<QueueRow>> {
  const where: SQL[] = [];
  if (filter.reason) where.push(eq(reports.reason, filter.reason));
  if (filter.status !== "all") where.push(eq(reports.status, filter.status));
  const condition = where.length > 0 ? and(...where) : undefined;
  const total = (await db.select({ n: count() }).from(reports).where(condition))[0]?.n ?? 0;
  const pile = db
    .select({ userId: reports.reportedId, n: sql<number>`count(distinct ${reports.reporterId})`.mapWith(Number).as("n") })
    .from(reports)
    .where(eq(reports.status, "open"))
    .groupBy(reports.reportedId)
    .as("pile");
  const rows = await db
    .select({
      id: reports.id,
      reason: reports.reason,
      context: reports.context,
      status: reports.status,
      details: sql<string>`substr(${reports.details}, 1, 140)`,
      createdAt: reports.createdAt,
      // 1 or 0 on both engines (a bare IS NOT NULL is a boolean on PostgreSQL).
      hasEvidence: sql<number>`CASE WHEN ${reports.evidencePath} IS NOT NULL THEN 1 ELSE 0 END`.mapWith(Number),
      reporterId: reports.reporterId,
      reporterName: reporter.username,
      reportedId: reports.reportedId,
      reportedName: reported.username,
      reporters: sql<number>`coalesce(${pile.n}, 0)`.mapWith(Number),
    })
    .from(reports)
    .innerJoin(reporter, eq(reporter.id, reports.reporterId))
    .innerJoin(reported, eq(reported.id, reports.reportedId))
    .leftJoin(pile, eq(pile.userId, reports.reportedId))
    .where(condition)
    .orderBy(
      sql`${reports.status} = 'open' DESC`,
      sql`${reports.reason} = 'underage' DESC`,
      sql`coalesce(${pile.n}, 0) DESC`,
      asc(reports.createdAt),
      asc(reports.id),
    )
    .limit(PAGE_SIZE)
    .offset((filter.page - 1) * PAGE_SIZE);
  return { rows: rows.map((row) => ({ ...row, hasEvidence: row.hasEvidence === 1 })), total, page: filter.page, pages: pageCount(total) };
}

export interface ReportListItem {
  id: number;
  reason: string;
  context: string;
  status: string;
  createdAt: number;
  reporterId: number;
  reporterName: string;
  reportedId: number;
  reportedName: string;
}

const listColumns = {
  id: reports.id,
  reason: reports.reason,
  context: reports.context,
  status: reports.status,
  createdAt: reports.createdAt,
  reporterId: reports.reporterId,
  reporterName: reporter.username,
  reportedId: reports.reportedId,
  reportedName: reported.username,
};

/** Reports by or about one user, newest first (at most `limit`). */
export async function reportsOf(db: Db, side: "reporter" | "reported", userId: number, options: { openOnly?: boolean; limit?: number } = {}): Promise<ReportListItem[]> {
  const who = side === "reporter" ? eq(reports.reporterId, userId) : eq(reports.reportedId, userId);
  return await db
    .select(listColumns)
    .from(reports)
    .innerJoin(reporter, eq(reporter.id, reports.reporterId))
    .innerJoin(reported, eq(reported.id, reports.reportedId))
    .where(options.openOnly ? and(who, eq(reports.status, "open")) : who)
    .orderBy(desc(reports.createdAt), desc(reports.id))
    .limit(options.limit ?? PAGE_SIZE);
}

export async function countReports(db: Db, side: "reporter" | "reported", userId: number): Promise<number> {
  const who = side === "reporter" ? eq(reports.reporterId, userId) : eq(reports.reportedId, userId);
  return (await db.select({ n: count() }).from(reports).where(who))[0]?.n ?? 0;
}

export const findReport = async (db: Db, id: number) => (await db.select().from(reports).where(eq(reports.id, id)).limit(1))[0];

/** Which of these messages (sent by `senderId`) still exist unremoved, for the "remove" buttons. */
export async function removableMessages(db: Db, senderId: number, ids: readonly number[]): Promise<Set<number>> {
  const wanted = [...new Set(ids)].slice(0, 200);
  if (wanted.length === 0) return new Set();
  const rows = await db
    .select({ id: messages.id })
    .from(messages)
    .where(and(inArray(messages.id, wanted), eq(messages.senderId, senderId), isNull(messages.removedAt)));
  return new Set(rows.map((row) => row.id));
}
