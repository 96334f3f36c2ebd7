// People: the public shape of a user, the people list, profiles and presence columns.
import { and, count, desc, eq, gte, isNotNull, lte, ne, notInArray, or, sql, type SQL } from "drizzle-orm";
import { users, type UserRow } from "../storage/tables.ts";
import { engine, transaction, type Db, type Tx } from "../storage/index.ts";
import { countryName } from "../geo/countries.ts";
import { notFound, validationError } from "../http/errors.ts";
import type { OwnUser, PublicUser } from "../realtime/protocol.ts";
import { iso, isoOrNull } from "../time.ts";
import { afterCursor, encodeCursor, type UserCursor } from "./cursor.ts";
import { acceptDisplayName } from "./names/accept.ts";
import { readProfile } from "./profile.ts";
import { forgetUser } from "./cache.ts";
import { acceptInterests, acceptLanguages, interestsOf, languagesOf, recountTags } from "./interests.ts";

export const avatarUrl = (path: string | null): string | null => (path ? `/uploads/${path}` : null);

export function toPublicUser(row: UserRow): PublicUser {
  return {
    id: row.id,
    username: row.username,
    name: row.name,
    gender: row.gender,
    orientation: row.orientation,
    age: row.age,
    country_code: row.countryCode,
    country_name: row.countryName,
    avatar_url: avatarUrl(row.avatarPath),
    is_online: row.isOnline,
    last_seen: iso(row.lastSeen),
    created_at: iso(row.createdAt),
    is_guest: row.isGuest,
    profile: readProfile(row.profile),
    interests: interestsOf(row),
    languages: languagesOf(row),
  };
}

export const toOwnUser = (row: UserRow): OwnUser => ({
  ...toPublicUser(row),
  email: row.email,
  adult_confirmed_at: isoOrNull(row.adultConfirmedAt),
  allow_from: row.allowFrom as OwnUser["allow_from"],
  role: row.role as OwnUser["role"],
  blur_nudity: row.blurNudity,
  locale: row.locale,
});

/** A ban in force (users.banned mirrors it): such a person leaves every list and presence. */
export const notBanned = (now: number): SQL => or(eq(users.banned, false), and(isNotNull(users.bannedUntil), lte(users.bannedUntil, now)))!;

export const isBannedNow = (row: Pick<UserRow, "banned" | "bannedUntil">, now = Date.now()): boolean =>
  row.banned && (row.bannedUntil === null || row.bannedUntil > now);

export async function findUser(db: Db, id: number): Promise<UserRow | undefined> {
  return (await db.select().from(users).where(eq(users.id, id)).limit(1))[0];
}

export async function requireUser(db: Db, id: number): Promise<UserRow> {
  const row = await findUser(db, id);
  if (!row) throw notFound("User not found");
  return row;
}

export interface UserFilters {
  q?: string;
  gender?: string;
  orientation?: string;
  countryCode?: string;
  minAge?: number;
  maxAge?: number;
  onlineOnly?: boolean;
  limit: number;
  /** Start after this row (the previous page's nextCursor); absent for the first page. */
  cursor?: UserCursor;
  /** People kept apart from the caller by a block (either direction): never listed. */
  hidden?: ReadonlySet<number>;
}

export interface UserPage {
  users: PublicUser[];
  /** Null on the last page. */
  nextCursor: string | null;
  /** The whole filtered set; counted for the first page only (a cursor page leaves them out). */
  total?: number;
  online?: number;
}

/**
 * Case-insensitive matching: SQLite's `LIKE` ignores case (ASCII letters); PostgreSQL's `LIKE`
 * does not and `ILIKE` does (every letter it knows).
 */
const LIKE = sql.raw(engine === "postgres" ? "ILIKE" : "LIKE");

/** `LIKE` with the user's text taken literally: % and _ match only themselves. */
const contains = (text: string) => `%${text.replace(/[\\%_]/g, (c) => "\\" + c)}%`;

function filterCondition(callerId: number, filters: UserFilters): SQL | undefined {
  const where: SQL[] = [ne(users.id, callerId), notBanned(Date.now())];
  if (filters.hidden && filters.hidden.size > 0) where.push(notInArray(users.id, [...filters.hidden]));
  if (filters.q) {
    const pattern = contains(filters.q);
    where.push(sql`(${users.name} ${LIKE} ${pattern} ESCAPE '\\' OR ${users.username} ${LIKE} ${pattern} ESCAPE '\\')`);
  }
  if (filters.gender) where.push(eq(users.gender, filters.gender));
  if (filters.orientation) where.push(eq(users.orientation, filters.orientation));
  // By code: the stored name is always the server's name for the code.
  if (filters.countryCode) where.push(eq(users.countryCode, filters.countryCode));
  if (filters.minAge !== undefined) where.push(isNotNull(users.age), gte(users.age, filters.minAge));
  if (filters.maxAge !== undefined) where.push(isNotNull(users.age), lte(users.age, filters.maxAge));
  if (filters.onlineOnly) where.push(eq(users.isOnline, true));
  return and(...where);
}

/**
 * Everyone but the caller: online first (most recently seen first), then by last_seen, one page
 * at a time. The page walks the presence index from the cursor and stops after `limit` rows.
 */
export async function listUsers(db: Db, callerId: number, filters: UserFilters): Promise<UserPage> {
  const condition = filterCondition(callerId, filters);
  const rows = await db
    .select()
    .from(users)
    .where(filters.cursor ? and(condition, afterCursor(filters.cursor)) : condition)
    .orderBy(desc(users.isOnline), desc(users.lastSeen), desc(users.id))
    .limit(filters.limit + 1);
  const page = rows.slice(0, filters.limit);
  const last = page.at(-1);
  const nextCursor = rows.length > filters.limit && last ? encodeCursor({ online: last.isOnline, lastSeen: last.lastSeen, id: last.id }) : null;
  const answer: UserPage = { users: page.map(toPublicUser), nextCursor };
  // Counting reads the whole filtered set: once per search, not once per page scrolled.
  if (filters.cursor) return answer;
  // The flag summed as 1 or 0 (PostgreSQL has no sum of a boolean); sums and counts as numbers.
  const online = sql<number>`coalesce(sum(CASE WHEN ${users.isOnline} THEN 1 ELSE 0 END), 0)`.mapWith(Number);
  const [counts] = await db.select({ total: count(), online }).from(users).where(condition);
  return { ...answer, total: counts?.total ?? 0, online: counts?.online ?? 0 };
}

export interface ProfileInput {
  name: string;
  gender?: string;
  age?: number | null;
  country_code?: string | null;
  orientation?: string;
  interests?: string[];
  languages?: string[];
}

export async function updateProfile(db: Db, self: Pick<UserRow, "id" | "isGuest">, input: ProfileInput): Promise<UserRow> {
  const userId = self.id;
  const name = acceptDisplayName(input.name);
  // A registered account's age stays 18 to 99 (API.md "Safety", Adult); guests may leave it empty.
  if (input.age === null && !self.isGuest) throw validationError({ age: "Age must be a whole number from 18 to 99" });
  const changes: Partial<UserRow> = { name };
  if (input.gender !== undefined) changes.gender = input.gender;
  if (input.orientation !== undefined) changes.orientation = input.orientation;
  if (input.age !== undefined) changes.age = input.age;
  if (input.country_code !== undefined) {
    if (input.country_code === null) {
      changes.countryCode = null;
      changes.countryName = null;
    } else {
      const nameForCode = countryName(input.country_code);
      if (!nameForCode) throw validationError({ country_code: "Choose a country" });
      changes.countryCode = input.country_code.toUpperCase();
      changes.countryName = nameForCode;
    }
  }
  const interests = input.interests === undefined ? undefined : acceptInterests(input.interests);
  if (interests !== undefined) changes.interests = JSON.stringify(interests);
  if (input.languages !== undefined) changes.languages = JSON.stringify(acceptLanguages(input.languages));
  // The tag counts move with the row, in one transaction: suggestions never count a tag twice.
  const row = await transaction(db, async (tx) => {
    const before = interests === undefined ? undefined : (await tx.select({ interests: users.interests }).from(users).where(eq(users.id, userId)).limit(1))[0];
    const [updated] = await tx.update(users).set(changes).where(eq(users.id, userId)).returning();
    if (updated && before && interests) await recountTags(tx, readTags(before.interests), interests);
    return updated;
  });
  forgetUser(db, userId);
  if (!row) throw notFound("User not found");
  return row;
}

const readTags = (text: string): string[] => interestsOf({ interests: text, languages: "[]" } as UserRow);

/** Settings → Safety: blur nudity in video and pictures (issue 12). */
export async function setBlurNudity(db: Db, userId: number, on: boolean): Promise<UserRow> {
  const [row] = await transaction(db, (tx) => tx.update(users).set({ blurNudity: on }).where(eq(users.id, userId)).returning());
  forgetUser(db, userId);
  return row ?? (await requireUser(db, userId));
}

export async function setLocale(db: Db, userId: number, locale: string): Promise<UserRow> {
  const [row] = await transaction(db, (tx) => tx.update(users).set({ locale }).where(eq(users.id, userId)).returning());
  forgetUser(db, userId);
  return row ?? (await requireUser(db, userId));
}

/**
 * Writes only a change, so repeating the same state costs no write. Runs inside the presence
 * batch's transaction (realtime/lifecycle.ts).
 */
export async function setPresence(db: Tx, userId: number, online: boolean, at: number): Promise<void> {
  await db.update(users).set({ isOnline: online, lastSeen: at }).where(and(eq(users.id, userId), ne(users.isOnline, online)));
  forgetUser(db, userId);
}

/** After a restart nobody has a socket yet; at a clean shutdown `lastSeen` is now for everyone still online. */
export async function resetPresence(db: Db, lastSeen?: number): Promise<void> {
  await transaction(db, (tx) => tx
    .update(users)
    .set(lastSeen === undefined ? { isOnline: false } : { isOnline: false, lastSeen })
    .where(eq(users.isOnline, true)));
}
