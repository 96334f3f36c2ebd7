// Read-only queries about people for the console: the search, a user's record (bans, warnings,
// sessions) and the short summary shown beside a report. Lists are capped.
import { count, desc, eq, or, sql } from "drizzle-orm";
import { bans, sessions, users, warnings, type BanRow, type UserRow, type WarningRow } from "../../storage/tables.ts";
import type { Db } from "../../storage/index.ts";
import { activeBan } from "../bans.ts";
import { countReports } from "./reports.ts";

export const SEARCH_LIMIT = 50;
const HISTORY_LIMIT = 50;

export const findUserRow = async (db: Db, id: number): Promise<UserRow | undefined> => (await db.select().from(users).where(eq(users.id, id)).limit(1))[0];

/** By id (a whole number), or by the start of a username or e-mail, case ignored. */
export async function searchUsers(db: Db, query: string): Promise<UserRow[]> {
  const q = query.trim().toLowerCase().slice(0, 100);
  if (!q) return [];
  const prefix = `${q.replace(/[\\%_]/g, (c) => "\\" + c)}%`;
  const byText = or(sql`${users.usernameKey} LIKE ${prefix} ESCAPE '\\'`, sql`${users.emailKey} LIKE ${prefix} ESCAPE '\\'`);
  const id = /^\d{1,15}$/.test(q) ? Number(q) : null;
  return await db
    .select()
    .from(users)
    .where(id !== null ? or(eq(users.id, id), byText) : byText)
    // An exact id or name first, then alphabetical.
    .orderBy(sql`${users.id} = ${id ?? -1} DESC`, sql`${users.usernameKey} = ${q} DESC`, users.usernameKey)
    .limit(SEARCH_LIMIT);
}

/** A user's bans, newest first. */
export const bansOf = async (db: Db, userId: number): Promise<BanRow[]> =>
  await db.select().from(bans).where(eq(bans.userId, userId)).orderBy(desc(bans.createdAt), desc(bans.id)).limit(HISTORY_LIMIT);

export const warningsOf = async (db: Db, userId: number): Promise<WarningRow[]> =>
  await db.select().from(warnings).where(eq(warnings.userId, userId)).orderBy(desc(warnings.createdAt), desc(warnings.id)).limit(HISTORY_LIMIT);

export interface SessionSummary {
  count: number;
  lastUsedAt: number | null;
}

export async function sessionSummary(db: Db, userId: number): Promise<SessionSummary> {
  const [row] = await db.select({ n: count(), last: sql<number | null>`max(${sessions.lastUsedAt})`.mapWith(Number) }).from(sessions).where(eq(sessions.userId, userId));
  return { count: row?.n ?? 0, lastUsedAt: row?.last ?? null };
}

/** What a moderator wants to know about someone at a glance, beside a report. */
export interface PersonSummary {
  user: UserRow;
  reportsReceived: number;
  reportsMade: number;
  bans: number;
  activeBan: BanRow | undefined;
}

export async function personSummary(db: Db, user: UserRow, now: number): Promise<PersonSummary> {
  return {
    user,
    reportsReceived: await countReports(db, "reported", user.id),
    reportsMade: await countReports(db, "reporter", user.id),
    bans: (await db.select({ n: count() }).from(bans).where(eq(bans.userId, user.id)))[0]?.n ?? 0,
    activeBan: await activeBan(db, user.id, now),
  };
}

export const findBan = async (db: Db, id: number): Promise<BanRow | undefined> => (await db.select().from(bans).where(eq(bans.id, id)).limit(1))[0];
