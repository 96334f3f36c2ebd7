// Transactions on PostgreSQL, with the seam's contract (storage/index.ts): `transaction(db, work)`
// runs `work` on one pooled connection between BEGIN and COMMIT, `transaction(tx, work)` is a
// savepoint, `atomic` joins the transaction whose `tx` it is given. Other requests' statements
// run on other connections meanwhile, so nothing waits in a queue here as it must on SQLite's one
// connection (storage/sqlite-transactions.ts); what waits is PostgreSQL's own locking.
import { AsyncLocalStorage } from "node:async_hooks";
import { drizzle } from "drizzle-orm/postgres-js";
import * as schema from "../../db/pg/schema.ts";
import { pgClient } from "./pg-client.ts";
import type { PgDb } from "./postgres.ts";
import type { AsyncTx } from "./sqlite-transactions.ts";
import type { Db, ReadDb } from "../db.ts";

/** What drizzle's PostgreSQL database and its transactions share: opening a (nested) transaction. */
interface Transactional {
  transaction<T>(work: (tx: Transactional) => Promise<T>): Promise<T>;
}

/** Each open transaction's handle, and the database it runs on (perDatabase keys on that). */
const roots = new WeakMap<object, PgDb>();
/** The database whose transaction this async context runs inside, if any. */
const inside = new AsyncLocalStorage<object>();

export function databaseOf(db: ReadDb | AsyncTx): Db {
  return (roots.get(db) ?? db) as unknown as Db;
}

const isTx = (db: ReadDb | AsyncTx): boolean => roots.has(db);

export async function transaction<T>(db: ReadDb | AsyncTx, work: (tx: AsyncTx) => Promise<T> | T): Promise<T> {
  const root = databaseOf(db) as unknown as PgDb;
  const nested = isTx(db);
  // Same refusal as on SQLite, so a mistake shows on the default engine: here it would open a
  // second transaction on another connection, and its writes would not roll back with this one.
  if (!nested && inside.getStore() === root) {
    throw new Error("A transaction is already open here: pass its tx (atomic(tx, ...) or transaction(tx, ...)), not the database");
  }
  return (db as unknown as Transactional).transaction(async (tx) => {
    roots.set(tx, root);
    return inside.run(root, () => work(tx as unknown as AsyncTx));
  });
}

/** As on SQLite (sqlite-transactions.ts): joining answers what `work` answers. */
export function atomic<T>(db: ReadDb | AsyncTx, work: (tx: AsyncTx) => Promise<T> | T): Promise<T> | T {
  return isTx(db) ? work(db as AsyncTx) : transaction(db, work);
}

const autocommitting = new WeakMap<object, AsyncTx>();

/**
 * A handle that `atomic` joins as it would a transaction, but whose statements each commit alone
 * on the pool: for work made of one write statement (which PostgreSQL runs atomically by itself),
 * so it costs one round trip instead of BEGIN, the statement and COMMIT in turn. The message
 * writer uses it for batches of such jobs only (messages/writer.ts).
 */
export function autocommitHandle(db: ReadDb | AsyncTx): AsyncTx {
  const root = databaseOf(db) as unknown as PgDb;
  let handle = autocommitting.get(root);
  if (!handle) {
    // A drizzle handle of its own over the same pool: marking the database itself as a
    // transaction would make every `atomic` on it skip its transaction.
    handle = drizzle(pgClient(root), { schema }) as unknown as AsyncTx;
    roots.set(handle, root);
    autocommitting.set(root, handle);
  }
  return handle;
}
