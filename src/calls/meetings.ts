// Who has been in an answered call with whom, kept so that a report can be checked against a real
// meeting (reports/contact.ts): one row per pair with the last answer's time. Written once per
// answered call, read once per report. Rows older than MEETING_MEMORY_MS are forgotten, swept at
// most once an hour from the write path, so the table holds only recent pairs.
import { and, eq, gte, lt, sql } from "drizzle-orm";
import { callMeetings } from "../storage/tables.ts";
import { transaction, type Db } from "../storage/index.ts";

/** A call this long ago still counts as having met. */
export const MEETING_MEMORY_MS = 30 * 24 * 60 * 60_000;
const SWEEP_EVERY_MS = 60 * 60_000;

const lastSweep = new WeakMap<Db, number>();

const ordered = (a: number, b: number) => (a < b ? { userLo: a, userHi: b } : { userLo: b, userHi: a });

export async function recordAnsweredCall(db: Db, a: number, b: number, now: number): Promise<void> {
  const pair = ordered(a, b);
  await transaction(db, (tx) => tx
    .insert(callMeetings)
    .values({ ...pair, answeredAt: now })
    .onConflictDoUpdate({ target: [callMeetings.userLo, callMeetings.userHi], set: { answeredAt: sql`excluded.answered_at` } }));
  if (now - (lastSweep.get(db) ?? 0) < SWEEP_EVERY_MS) return;
  lastSweep.set(db, now);
  await transaction(db, (tx) => tx.delete(callMeetings).where(lt(callMeetings.answeredAt, now - MEETING_MEMORY_MS)));
}

/** Whether `a` and `b` were in an answered call within MEETING_MEMORY_MS. */
export async function metInCall(db: Db, a: number, b: number, now: number): Promise<boolean> {
  const { userLo, userHi } = ordered(a, b);
  const rows = await db
    .select({ at: callMeetings.answeredAt })
    .from(callMeetings)
    .where(and(eq(callMeetings.userLo, userLo), eq(callMeetings.userHi, userHi), gte(callMeetings.answeredAt, now - MEETING_MEMORY_MS)))
    .limit(1);
  return rows.length > 0;
}
