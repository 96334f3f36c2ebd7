// One `T` per database (prepared statements, in-memory helpers), shared by the transactions
// opened on it.
import type { Db, ReadDb } from "../db.ts";
import * as onSqlite from "./sqlite-transactions.ts";
import * as onPostgres from "./pg-transactions.ts";

// Either engine's transaction handle leads to its database (each answers any other handle as is),
// so this holds whichever engine the process runs and in tests that open both.
const databaseOf = (handle: ReadDb): Db => onSqlite.databaseOf(onPostgres.databaseOf(handle));

/**
 * One `T` per database, made on first use: prepared statements and in-memory helpers belong to the
 * connection they were made for, and tests open many databases in one process.
 */
export function perDatabase<T>(make: (db: Db) => T): (db: ReadDb) => T {
  const made = new WeakMap<Db, T>();
  return (handle) => {
    // A transaction's handle (storage/sqlite-transactions.ts) shares its database's.
    const db = databaseOf(handle);
    let found = made.get(db);
    if (found === undefined) made.set(db, (found = make(db)));
    return found;
  };
}
