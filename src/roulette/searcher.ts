// The searcher as roulette needs them, read once when they start searching: what a stranger may
// learn (kept with the queue entry, so pairing reads no user) and what may stop them (adult
// confirmation, suspension). Read from the table rather than from the socket so that a confirmation
// or a suspension made after the socket opened applies to the very next search.
import type { Database } from "bun:sqlite";
import type { UserRow } from "../../db/schema.ts";

export type Searcher = Pick<
  UserRow,
  "id" | "gender" | "age" | "countryCode" | "countryName" | "adultConfirmedAt" | "rouletteSuspendedAt" | "rouletteSuspendedUntil" | "rouletteSuspensionReason"
>;

// bun:sqlite's query() keeps the compiled statement, so this is prepared once per database.
const SQL = `SELECT id, gender, age, country_code AS countryCode, country_name AS countryName,
  adult_confirmed_at AS adultConfirmedAt, roulette_suspended_at AS rouletteSuspendedAt,
  roulette_suspended_until AS rouletteSuspendedUntil, roulette_suspension_reason AS rouletteSuspensionReason
  FROM users WHERE id = ?`;

export function readSearcher(sqlite: Database, userId: number): Searcher | null {
  return sqlite.query<Searcher, [number]>(SQL).get(userId);
}
