// Read-only queries about people for the console: the search, a user's record (bans, warnings,
// sessions) and the short summary shown beside a report. Lists are capped.
import { count, desc, eq, or, sql } from "drizzle-orm";
import { bans, sessions, users, warnings, type BanRow, type UserRow, type WarningRow } from "../../../db/schema.ts";
import type { Db } from "../../db.ts";
import { activeBan } from "../bans.ts";
import { countReports } from "./reports.ts";

export const SEARCH_LIMIT = 50;
const HISTORY_LIMIT = 50;

export const findUserRow = (db: Db, id: number): UserRow | undefined => db.select().from(users).where(eq(users.id, id)).get();

/** By id (a whole number), or by the start of a username or e-mail, case ignored. */
export function searchUsers(db: Db, query: string): UserRow[] {
  const q = query.trim().toLowerCase().slice(0, 100);
  if (!q) return [];
  const prefix = `${q.replace(/[\\%_]/g, (c) => "\\" + c)}%`;
  const byText = or(sql`${users.usernameKey} LIKE ${prefix} ESCAPE '\\'`, sql`${users.emailKey} LIKE ${prefix} ESCAPE '\\'`);
  const id = /^\d{1,15}$/.test(q) ? Number(q) : null;
  return db
    .select()
    .from(users)
    .where(id !== null ? or(eq(users.id, id), byText) : byText)
    // An exact id or name first, then alphabetical.
    .orderBy(sql`${users.id} = ${id ?? -1} DESC`, sql`${users.usernameKey} = ${q} DESC`, users.usernameKey)
    .limit(SEARCH_LIMIT)
    .all();
}

/** A user's bans, newest first. */
export const bansOf = (db: Db, userId: number): BanRow[] =>
  db.select().from(bans).where(eq(bans.userId, userId)).orderBy(desc(bans.createdAt), desc(bans.id)).limit(HISTORY_LIMIT).all();

export const warningsOf = (db: Db, userId: number): WarningRow[] =>
  db.select().from(warnings).where(eq(warnings.userId, userId)).orderBy(desc(warnings.createdAt), desc(warnings.id)).limit(HISTORY_LIMIT).all();

export interface SessionSummary {
  count: number;
  lastUsedAt: number | null;
}

export function sessionSummary(db: Db, userId: number): SessionSummary {
  const row = db.select({ n: count(), last: sql<number | null>`max(${sessions.lastUsedAt})` }).from(sessions).where(eq(sessions.userId, userId)).get();
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

export function personSummary(db: Db, user: UserRow, now: number): PersonSummary {
  return {
    user,
    reportsReceived: countReports(db, "reported", user.id),
    reportsMade: countReports(db, "reporter", user.id),
    bans: db.select({ n: count() }).from(bans).where(eq(bans.userId, user.id)).get()?.n ?? 0,
    activeBan: activeBan(db, user.id, now),
  };
}

export const findBan = (db: Db, id: number): BanRow | undefined => db.select().from(bans).where(eq(bans.id, id)).get();
