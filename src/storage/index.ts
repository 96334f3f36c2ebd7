// The storage seam (STYLE.md "Two engines, one contract"): what services take to reach the
// database, whichever engine runs it. Services import from here, never from bun:sqlite or a
// PostgreSQL client; src/db.ts (SQLite, the embedded default) opens the engine behind it.
//
// Two handles:
// - `Db`: the database. Reads, and writes that stand alone.
// - `Tx`: an open transaction. A helper that writes as one part of a larger action (an audit row,
//   closing reports, a conversation row after a message) takes a `Tx`, so the compiler refuses a
//   call that passes the database instead: on a pool of connections that write would run on
//   another connection, outside the transaction, and survive its rollback.
// Open one with `transaction(db, (tx) => ...)`; `atomic(db, ...)` joins the transaction already
// open (the message writer's batch) or opens one.
//
// On SQLite a transaction is a state of the one connection, so `tx` is the very `Db` object (the
// brand exists for the compiler only) and prepared statements made per database (`perDatabase`)
// serve inside transactions too.
import type { Db } from "../db.ts";

export type { Db } from "../db.ts";
export { perDatabase } from "../db.ts";
/** A second name for a table in one query (a self-join); each dialect has its own, so it comes from here. */
export { alias } from "drizzle-orm/sqlite-core";

export type Dialect = "sqlite" | "postgres";

declare const openTransaction: unique symbol;

/** The handle of an open transaction: writes through it commit or roll back with it. */
export type Tx = Db & { readonly [openTransaction]: true };

/**
 * Runs `work` in a new transaction and answers what it answers; a throw rolls everything back.
 * Inside another transaction it is a savepoint: only its own writes roll back.
 */
export function transaction<T>(db: Db | Tx, work: (tx: Tx) => T): T {
  return db.$client.transaction(() => work(db as Tx))();
}

/** Runs `work` in the transaction open on `db` (no savepoint), or in a new one. */
export function atomic<T>(db: Db | Tx, work: (tx: Tx) => T): T {
  return db.$client.inTransaction ? work(db as Tx) : transaction(db, work);
}
