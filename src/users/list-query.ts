// GET /api/users's query string, checked and turned into the filters listUsers takes. Every
// wrong value is the contract's 400 with a field message, never a quiet empty list.
import { Type as t } from "@sinclair/typebox";
import { countries, isCountryCode } from "../geo/countries.ts";
import { validationError } from "../http/errors.ts";
import { validate } from "../http/validate.ts";
import { CURSOR_PATTERN, decodeCursor } from "./cursor.ts";
import type { UserFilters } from "./service.ts";

export const DEFAULT_LIST_LIMIT = 100;
export const MAX_LIST_LIMIT = 500;

export const listQuery = t.Object({
  q: t.Optional(t.String({ maxLength: 100, error: "q must be at most 100 characters" })),
  gender: t.Optional(t.String({ maxLength: 32 })),
  orientation: t.Optional(t.String({ maxLength: 32 })),
  country: t.Optional(t.String({ maxLength: 100, error: "country must be a country code or name" })),
  // Numbers stay digit strings here: converting first would quietly turn "2.5" into 2.
  minAge: t.Optional(t.String({ pattern: "^[0-9]{1,3}$", error: "minAge must be a whole number" })),
  maxAge: t.Optional(t.String({ pattern: "^[0-9]{1,3}$", error: "maxAge must be a whole number" })),
  online: t.Optional(t.Union([t.Literal("1"), t.Literal("0"), t.Literal("true"), t.Literal("false")], { error: "online must be 1 or 0" })),
  limit: t.Optional(t.String({ pattern: "^[1-9][0-9]{0,8}$", error: "limit must be a positive whole number" })),
  cursor: t.Optional(t.String({ pattern: CURSOR_PATTERN, error: "cursor must be the nextCursor of an earlier answer" })),
});

const codeByName = new Map(countries.map((c) => [c.name.toLowerCase(), c.code]));

/** A code ("JP", "jp") or the name the server stores ("Japan", any case), as a code. */
function countryCode(raw: string): string {
  const text = raw.trim();
  const code = /^[A-Za-z]{2}$/.test(text) ? (isCountryCode(text) ? text.toUpperCase() : undefined) : codeByName.get(text.toLowerCase());
  if (!code) throw validationError({ country: "Unknown country: use a country code or name" });
  return code;
}

export function parseListQuery(query: unknown, hidden: ReadonlySet<number>): UserFilters {
  const q = validate(listQuery, query);
  const number = (raw: string | undefined) => (raw === undefined || raw === "" ? undefined : Number(raw));
  const country = q.country?.trim();
  return {
    q: q.q?.trim() || undefined,
    gender: q.gender || undefined,
    orientation: q.orientation || undefined,
    countryCode: country ? countryCode(country) : undefined,
    minAge: number(q.minAge),
    maxAge: number(q.maxAge),
    onlineOnly: q.online === "1" || q.online === "true",
    // "At most 500": a larger limit is capped.
    limit: q.limit === undefined ? DEFAULT_LIST_LIMIT : Math.min(Number(q.limit), MAX_LIST_LIMIT),
    cursor: q.cursor === undefined ? undefined : decodeCursor(q.cursor),
    hidden,
  };
}
