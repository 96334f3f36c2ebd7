// Interests and spoken languages on a profile (issue 24): the rules of API.md "Interests and
// languages", the JSON columns on users, and the per-tag counts that suggestions read.
import ISO6391 from "iso-639-1";
import { asc, desc, gte, and, lt, sql, inArray } from "drizzle-orm";
import { interestTags, type UserRow } from "../storage/tables.ts";
import type { Db, Tx } from "../storage/index.ts";
import { validationError } from "../http/errors.ts";
import { INTEREST_RULE, isInterest, MAX_INTERESTS, MAX_LANGUAGES, normaliseInterest } from "./values.ts";

/** A tag is suggested only once this many people list it: a rare tag would point at its few users. */
export const SUGGEST_MIN_USES = 5;
export const MAX_SUGGESTIONS = 10;
/** Longer than any tag: such a prefix can match nothing. */
export const MAX_PREFIX = 24;

const LANGUAGE_CODES: ReadonlySet<string> = new Set(ISO6391.getAllCodes());

export const isLanguageCode = (code: string): boolean => LANGUAGE_CODES.has(code);

/** The stored form of interests as sent: normalised, duplicates removed, in the order given. */
export function acceptInterests(input: readonly string[]): string[] {
  const tags: string[] = [];
  for (const raw of input) {
    const tag = normaliseInterest(raw);
    if (!isInterest(tag)) throw validationError({ interests: INTEREST_RULE });
    if (!tags.includes(tag)) tags.push(tag);
  }
  if (tags.length > MAX_INTERESTS) throw validationError({ interests: `Choose at most ${MAX_INTERESTS} interests` });
  return tags;
}

/** ISO 639-1 codes, lower-cased, duplicates removed. */
export function acceptLanguages(input: readonly string[]): string[] {
  const codes: string[] = [];
  for (const raw of input) {
    const code = raw.trim().toLowerCase();
    if (!isLanguageCode(code)) throw validationError({ languages: "Choose languages from the list (ISO 639-1 codes)" });
    if (!codes.includes(code)) codes.push(code);
  }
  if (codes.length > MAX_LANGUAGES) throw validationError({ languages: `Choose at most ${MAX_LANGUAGES} languages` });
  return codes;
}

/** A stored JSON list back as strings; anything unreadable reads as none rather than failing a list. */
function readList(text: string | null | undefined): string[] {
  if (!text) return [];
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
  } catch {
    return [];
  }
}

// Rows are cached and shared (users/cache.ts), so each row's lists are parsed once; the texts
// are kept and compared, so a row changed in place is parsed again.
interface Lists {
  interestsText: string;
  languagesText: string;
  interests: string[];
  languages: string[];
}
const parsed = new WeakMap<UserRow, Lists>();

function listsOf(row: UserRow): Lists {
  let lists = parsed.get(row);
  // The same strings as when parsed: compared by reference first, so this costs no copy per search.
  if (!lists || lists.interestsText !== row.interests || lists.languagesText !== row.languages) {
    lists = { interestsText: row.interests, languagesText: row.languages, interests: readList(row.interests), languages: readList(row.languages) };
    parsed.set(row, lists);
  }
  return lists;
}

/** Copies: a caller may change what it gets. */
export const interestsOf = (row: UserRow): string[] => [...listsOf(row).interests];
export const languagesOf = (row: UserRow): string[] => [...listsOf(row).languages];
/** Shared, read-only: for the roulette queue, which only reads them. */
export const interestsView = (row: UserRow): readonly string[] => listsOf(row).interests;
export const languagesView = (row: UserRow): readonly string[] => listsOf(row).languages;

/**
 * Moves the per-tag counts from `before` to `after` (call inside the profile's transaction): a
 * tag nobody lists any more leaves the table.
 */
export async function recountTags(db: Tx, before: readonly string[], after: readonly string[]): Promise<void> {
  const added = after.filter((t) => !before.includes(t));
  const removed = before.filter((t) => !after.includes(t));
  for (const tag of added) {
    await db.insert(interestTags).values({ tag, uses: 1 }).onConflictDoUpdate({ target: interestTags.tag, set: { uses: sql`${interestTags.uses} + 1` } });
  }
  if (removed.length > 0) {
    await db.update(interestTags).set({ uses: sql`${interestTags.uses} - 1` }).where(inArray(interestTags.tag, removed));
    await db.delete(interestTags).where(and(inArray(interestTags.tag, removed), lt(interestTags.uses, 1)));
  }
}

/**
 * Tags starting with `prefix` (normalised as a tag is) that at least SUGGEST_MIN_USES people
 * list, most used first; with no prefix, the most used of all. Never more than MAX_SUGGESTIONS.
 */
export async function suggestInterests(db: Db, rawPrefix: string): Promise<string[]> {
  const prefix = normaliseInterest(rawPrefix).slice(0, MAX_PREFIX + 1);
  if (prefix.length > MAX_PREFIX) return [];
  const popular = gte(interestTags.uses, SUGGEST_MIN_USES);
  // A range on the primary key: "ch" reads from "ch" up to, not including, "ch\u{10FFFF}".
  const where = prefix ? and(popular, gte(interestTags.tag, prefix), lt(interestTags.tag, prefix + "\u{10FFFF}")) : popular;
  const rows = await db
    .select({ tag: interestTags.tag })
    .from(interestTags)
    .where(where)
    .orderBy(desc(interestTags.uses), asc(interestTags.tag))
    .limit(MAX_SUGGESTIONS);
  return rows.map((r) => r.tag);
}
