// Warnings as the user sees them: the unacknowledged ones (shown in a modal until acknowledged)
// and acknowledging one's own.
import { and, asc, eq, isNull } from "drizzle-orm";
import { warnings, type WarningRow } from "../storage/tables.ts";
import { transaction, type Db } from "../storage/index.ts";
import { notFound } from "../http/errors.ts";
import type { WarningNotice } from "../realtime/protocol.ts";
import { iso } from "../time.ts";

/** More than a console would ever pile up on one person; keeps one answer small. */
const MAX_LISTED = 50;

export const toWarningNotice = (row: WarningRow): WarningNotice => ({ id: row.id, reason: row.reason, created_at: iso(row.createdAt) });

export async function unacknowledged(db: Db, userId: number): Promise<WarningNotice[]> {
  const rows = await db
    .select()
    .from(warnings)
    .where(and(eq(warnings.userId, userId), isNull(warnings.acknowledgedAt)))
    .orderBy(asc(warnings.createdAt), asc(warnings.id))
    .limit(MAX_LISTED);
  return rows.map(toWarningNotice);
}

/** Someone else's warning is a 404, as an unknown one; acknowledging twice keeps the first time. */
export async function acknowledge(db: Db, userId: number, warningId: number, now = Date.now()): Promise<WarningNotice> {
  const row = Number.isSafeInteger(warningId) ? (await db.select().from(warnings).where(eq(warnings.id, warningId)).limit(1))[0] : undefined;
  if (!row || row.userId !== userId) throw notFound("Warning not found");
  // Acknowledging twice keeps the first time, also when two requests race.
  if (row.acknowledgedAt === null) await transaction(db, (tx) => tx.update(warnings).set({ acknowledgedAt: now }).where(and(eq(warnings.id, row.id), isNull(warnings.acknowledgedAt))));
  return toWarningNotice(row);
}
