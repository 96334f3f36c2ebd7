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
// Open one with `await transaction(db, async (tx) => ...)`; `atomic(db, ...)` joins the
// transaction whose `tx` it is given (the message writer's batch) or opens one.
//
// On SQLite (src/storage/sqlite-transactions.ts) transactions take turns on the one connection,
// from BEGIN IMMEDIATE to COMMIT, and `tx` is a drizzle handle of its own on that connection;
// prepared statements made per database (`perDatabase`) serve inside transactions too.
export type { ReadDb as Db } from "../db.ts";
export { perDatabase } from "../db.ts";
/** A second name for a table in one query (a self-join); each dialect has its own, so it comes from here. */
export { alias } from "drizzle-orm/sqlite-core";
export { atomic, databaseOf, transaction, type AsyncTx as Tx } from "./sqlite-transactions.ts";

export type Dialect = "sqlite" | "postgres";
