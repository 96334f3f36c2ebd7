// The storage seam (STYLE.md "Two engines, one contract"): what services take to reach the
// database, whichever engine runs it. Services import from here (and their tables from
// ./tables.ts), never from bun:sqlite, a PostgreSQL client or db/schema.ts. The engine is the
// process's own (./engine.ts): SQLite in DATA_DIR, or PostgreSQL when DATABASE_URL is set.
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
// Both are typed as SQLite's drizzle handles (the contract type); on PostgreSQL the objects are
// drizzle's PostgreSQL ones, whose builders have the same shape for what services use (`select`,
// `insert ... values ... returning`, `onConflictDoNothing`, `update ... set ... where`, `delete`),
// awaited. On SQLite (./sqlite-transactions.ts) transactions take turns on the one connection, from
// BEGIN IMMEDIATE to COMMIT; on PostgreSQL (./pg-transactions.ts) each owns a pooled connection.
import { alias as sqliteAlias } from "drizzle-orm/sqlite-core";
import { alias as pgAlias } from "drizzle-orm/pg-core";
import { engine } from "./engine.ts";
import * as onSqlite from "./sqlite-transactions.ts";
import * as onPostgres from "./pg-transactions.ts";

export type { ReadDb as Db } from "../db.ts";
export type { AsyncTx as Tx } from "./sqlite-transactions.ts";
export { perDatabase } from "./per-database.ts";
export { engine, type Dialect } from "./engine.ts";

const chosen = engine === "postgres" ? onPostgres : onSqlite;

export const transaction: typeof onSqlite.transaction = chosen.transaction;
export const atomic: typeof onSqlite.atomic = chosen.atomic;
export const databaseOf: typeof onSqlite.databaseOf = chosen.databaseOf;

/** A second name for a table in one query (a self-join), in this engine's dialect. */
export const alias = (engine === "postgres" ? pgAlias : sqliteAlias) as unknown as typeof sqliteAlias;
