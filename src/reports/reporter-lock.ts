// One report at a time per reporter inside a transaction, so "is there an earlier report to merge
// into?" and the insert of a first one cannot both pass for two requests at once. On SQLite every
// write transaction already runs alone (storage/sqlite-transactions.ts); on PostgreSQL two run at
// once, and READ COMMITTED lets each miss the other's uncommitted row, so a transaction-scoped
// advisory lock on the reporter makes the second wait until the first has committed.
import { sql } from "drizzle-orm";
import { engine, type Tx } from "../storage/index.ts";

/** The advisory lock's first key: reports, by reporter ("rp" in ASCII). */
const REPORTS_BY_REPORTER = 0x7270;

export async function lockReporter(tx: Tx, reporterId: number): Promise<void> {
  if (engine !== "postgres") return;
  // drizzle's PostgreSQL transaction runs raw SQL with execute(); Tx is typed as SQLite's.
  const pg = tx as unknown as { execute(query: ReturnType<typeof sql>): Promise<unknown> };
  await pg.execute(sql`SELECT pg_advisory_xact_lock(${REPORTS_BY_REPORTER}::int, ${reporterId}::int)`);
}
