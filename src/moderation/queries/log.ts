// Read-only queries for the appeals list and the audit log, both paged.
import { and, count, desc, eq, sql, type SQL } from "drizzle-orm";
import { appeals, auditLog, bans, users, type AppealRow, type AuditRow, type BanRow } from "../../storage/tables.ts";
import { alias, type Db } from "../../storage/index.ts";
import { PAGE_SIZE, pageCount, type Paged } from "./reports.ts";

export interface AppealItem {
  appeal: AppealRow;
  ban: BanRow;
  username: string;
  deciderName: string | null;
}

const decider = alias(users, "decider");

/** Open appeals first (oldest first, as a queue), then decided ones, newest first. */
export async function appealList(db: Db, page: number): Promise<Paged<AppealItem>> {
  const total = (await db.select({ n: count() }).from(appeals))[0]?.n ?? 0;
  const rows = await db
    .select({ appeal: appeals, ban: bans, username: users.username, deciderName: decider.username })
    .from(appeals)
    .innerJoin(bans, eq(bans.id, appeals.banId))
    .innerJoin(users, eq(users.id, appeals.userId))
    .leftJoin(decider, eq(decider.id, appeals.decidedBy))
    .orderBy(
      sql`${appeals.status} = 'open' DESC`,
      sql`CASE WHEN ${appeals.status} = 'open' THEN ${appeals.createdAt} ELSE -${appeals.createdAt} END`,
      desc(appeals.id),
    )
    .limit(PAGE_SIZE)
    .offset((page - 1) * PAGE_SIZE);
  return { rows, total, page, pages: pageCount(total) };
}

export interface AuditFilter {
  action: string | null;
  actorId: number | null;
  targetId: number | null;
  page: number;
}

export interface AuditItem {
  entry: AuditRow;
  actorName: string | null;
  targetName: string | null;
}

const actor = alias(users, "actor");
const target = alias(users, "target");

/** Newest first. */
export async function auditPage(db: Db, filter: AuditFilter): Promise<Paged<AuditItem>> {
  const where: SQL[] = [];
  if (filter.action) where.push(eq(auditLog.action, filter.action));
  if (filter.actorId !== null) where.push(eq(auditLog.actorId, filter.actorId));
  if (filter.targetId !== null) where.push(eq(auditLog.targetUserId, filter.targetId));
  const condition = where.length > 0 ? and(...where) : undefined;
  const total = (await db.select({ n: count() }).from(auditLog).where(condition))[0]?.n ?? 0;
  const rows = await db
    .select({ entry: auditLog, actorName: actor.username, targetName: target.username })
    .from(auditLog)
    .leftJoin(actor, eq(actor.id, auditLog.actorId))
    .leftJoin(target, eq(target.id, auditLog.targetUserId))
    .where(condition)
    .orderBy(desc(auditLog.at), desc(auditLog.id))
    .limit(PAGE_SIZE)
    .offset((filter.page - 1) * PAGE_SIZE);
  return { rows, total, page: filter.page, pages: pageCount(total) };
}

/** The actions the log holds, for the filter's list. */
export const auditActions = async (db: Db): Promise<string[]> =>
  (await db.selectDistinct({ action: auditLog.action }).from(auditLog).orderBy(auditLog.action).limit(100)).map((r) => r.action);

/** A user id from an id or a username, for the audit filters. */
export async function userIdOf(db: Db, idOrName: string): Promise<number | null> {
  const value = idOrName.trim();
  if (!value) return null;
  if (/^\d{1,15}$/.test(value)) return Number(value);
  return (await db.select({ id: users.id }).from(users).where(eq(users.usernameKey, value.toLowerCase())).limit(1))[0]?.id ?? null;
}
