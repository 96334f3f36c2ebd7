// Warnings as the user sees them: the unacknowledged ones (shown in a modal until acknowledged)
// and acknowledging one's own.
import { and, asc, eq, isNull } from "drizzle-orm";
import { warnings, type WarningRow } from "../../db/schema.ts";
import type { Db } from "../db.ts";
import { notFound } from "../http/errors.ts";
import type { WarningNotice } from "../realtime/protocol.ts";
import { iso } from "../time.ts";

/** More than a console would ever pile up on one person; keeps one answer small. */
const MAX_LISTED = 50;

export const toWarningNotice = (row: WarningRow): WarningNotice => ({ id: row.id, reason: row.reason, created_at: iso(row.createdAt) });

export function unacknowledged(db: Db, userId: number): WarningNotice[] {
  return db
    .select()
    .from(warnings)
    .where(and(eq(warnings.userId, userId), isNull(warnings.acknowledgedAt)))
    .orderBy(asc(warnings.createdAt), asc(warnings.id))
    .limit(MAX_LISTED)
    .all()
    .map(toWarningNotice);
}

/** Someone else's warning is a 404, as an unknown one; acknowledging twice keeps the first time. */
export function acknowledge(db: Db, userId: number, warningId: number, now = Date.now()): WarningNotice {
  const row = Number.isSafeInteger(warningId) ? db.select().from(warnings).where(eq(warnings.id, warningId)).get() : undefined;
  if (!row || row.userId !== userId) throw notFound("Warning not found");
  if (row.acknowledgedAt === null) db.update(warnings).set({ acknowledgedAt: now }).where(eq(warnings.id, row.id)).run();
  return toWarningNotice(row);
}
