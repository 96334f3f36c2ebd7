// Retention (docs: Privacy page): a closed report keeps its still, transcript and details for
// REPORT_RETENTION_DAYS, then they are deleted. Reports that someone appears to be under 18 are
// kept until an admin deletes them (an operator may have to preserve and report such material).
// Ended bans forget the address hash they kept.
import { and, asc, inArray, isNotNull, isNull, lte, ne, or } from "drizzle-orm";
import { bans, reports } from "../storage/tables.ts";
import type { AppContext } from "../context.ts";
import { writeAudit } from "./audit.ts";
import { transaction } from "../storage/index.ts";
import { deleteStill } from "./files.ts";
import { logFailure } from "../storage/unavailable.ts";

const DAY_MS = 86_400_000;
/** Rows per transaction: a long backlog is cleared in steps that never hold the writer long. */
const BATCH = 200;

/** Returns the number of reports purged. */
export async function sweepRetention(ctx: Pick<AppContext, "db" | "config">, now: number): Promise<number> {
  const cutoff = now - ctx.config.reportRetentionDays * DAY_MS;
  let purged = 0;
  for (;;) {
    const batch = await ctx.db
      .select({ id: reports.id, evidencePath: reports.evidencePath })
      .from(reports)
      .where(and(isNotNull(reports.closedAt), lte(reports.closedAt, cutoff), isNull(reports.purgedAt), ne(reports.reason, "underage")))
      .orderBy(asc(reports.id))
      .limit(BATCH);
    if (batch.length === 0) break;
    await transaction(ctx.db, (tx) => tx
      .update(reports)
      .set({ transcript: null, evidencePath: null, details: "", purgedAt: now })
      .where(inArray(reports.id, batch.map((r) => r.id))));
    for (const row of batch) deleteStill(ctx.config, row.evidencePath);
    purged += batch.length;
  }
  // The hashes forgotten and the audit row that counts them commit together.
  await transaction(ctx.db, async (tx) => {
    const forgotten = (
      await tx
        .update(bans)
        .set({ addressHash: null })
        .where(and(isNotNull(bans.addressHash), or(isNotNull(bans.liftedAt), and(isNotNull(bans.until), lte(bans.until, now)))))
        .returning({ id: bans.id })
    ).length;
    if (purged > 0 || forgotten > 0) {
      await writeAudit(tx, { at: now, actorId: null, action: "retention_sweep", targetUserId: null, detail: { reports_purged: purged, addresses_forgotten: forgotten } });
    }
  });
  return purged;
}

/** Runs the sweep now and every hour (a sweep still running skips the turn); returns the stop function. */
export function startRetention(ctx: Pick<AppContext, "db" | "config" | "log">, everyMs = 60 * 60_000): () => void {
  let running = false;
  const run = () => {
    if (running) return;
    running = true;
    sweepRetention(ctx, Date.now())
      .catch((error: unknown) => logFailure(ctx.log, "retention sweep failed", error))
      .finally(() => {
        running = false;
      });
  };
  run();
  const timer = setInterval(run, everyMs);
  timer.unref?.();
  return () => clearInterval(timer);
}
