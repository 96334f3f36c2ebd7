// Who has been in an answered call with whom, kept so that a report can be checked against a real
// meeting (reports/contact.ts): one row per pair with the last answer's time. Written once per
// answered call, read once per report. Rows older than MEETING_MEMORY_MS are forgotten, swept at
// most once an hour from the write path, so the table holds only recent pairs.
import { and, eq, gte, lt, sql } from "drizzle-orm";
import { callMeetings } from "../../db/schema.ts";
import type { Db } from "../db.ts";

/** A call this long ago still counts as having met. */
export const MEETING_MEMORY_MS = 30 * 24 * 60 * 60_000;
const SWEEP_EVERY_MS = 60 * 60_000;

const lastSweep = new WeakMap<Db, number>();

const ordered = (a: number, b: number) => (a < b ? { userLo: a, userHi: b } : { userLo: b, userHi: a });

export function recordAnsweredCall(db: Db, a: number, b: number, now: number): void {
  const pair = ordered(a, b);
  db.insert(callMeetings)
    .values({ ...pair, answeredAt: now })
    .onConflictDoUpdate({ target: [callMeetings.userLo, callMeetings.userHi], set: { answeredAt: sql`excluded.answered_at` } })
    .run();
  if (now - (lastSweep.get(db) ?? 0) < SWEEP_EVERY_MS) return;
  lastSweep.set(db, now);
  db.delete(callMeetings).where(lt(callMeetings.answeredAt, now - MEETING_MEMORY_MS)).run();
}

/** Whether `a` and `b` were in an answered call within MEETING_MEMORY_MS. */
export function metInCall(db: Db, a: number, b: number, now: number): boolean {
  const { userLo, userHi } = ordered(a, b);
  return (
    db
      .select({ at: callMeetings.answeredAt })
      .from(callMeetings)
      .where(and(eq(callMeetings.userLo, userLo), eq(callMeetings.userHi, userHi), gte(callMeetings.answeredAt, now - MEETING_MEMORY_MS)))
      .get() !== undefined
  );
}
