// Asynchronous transactions on SQLite's one connection (DECISIONS "Issue 22", item 1: the seam's
// `transaction` and `atomic` once every service is async). On PostgreSQL a transaction owns a
// pooled connection, so whatever else runs meanwhile runs elsewhere. SQLite has one connection:
// a transaction is a state of it, and while its body awaits, any other statement of the process
// would land inside it and share its fate. So here:
// - every write transaction of a database waits its turn (one at a time, in the order asked) and
//   holds the connection from BEGIN IMMEDIATE to COMMIT; lone writes go through it too;
// - its body writes through `tx`, a drizzle handle of its own on the same connection, so joining
//   (`atomic`) is by identity: a body can join only its own transaction, never another request's
//   that happens to be open;
// - a body that asks the database (not its `tx`) for a transaction would wait for itself forever:
//   that is refused at once, naming the mistake.
// Reads outside a transaction do not wait: on one connection they may see rows a transaction has
// written and not yet committed (microseconds inside one process; accepted).
import type { Database } from "bun:sqlite";
import { AsyncLocalStorage } from "node:async_hooks";
import { drizzle } from "drizzle-orm/bun-sqlite";
import * as schema from "../../db/schema.ts";
import type { Db, ReadDb } from "../db.ts";

declare const openTransaction: unique symbol;
/** The handle of an open transaction: writes through it commit or roll back with it. */
export type AsyncTx = Db & { readonly [openTransaction]: true };

interface Root {
  db: Db;
  /** The transactions' handle: one per database, used by one transaction at a time. */
  tx: AsyncTx;
  /** Settles when the transaction before the last one asked has ended. */
  tail: Promise<void>;
  /** Savepoints open inside the running transaction. */
  depth: number;
}

const roots = new WeakMap<Db, Root>();
const txRoots = new WeakMap<object, Root>();
/** The database whose transaction this async context runs inside, if any. */
const inside = new AsyncLocalStorage<Db>();

function rootFor(db: Db): Root {
  let root = roots.get(db) ?? txRoots.get(db);
  if (!root) {
    const tx = drizzle(db.$client as Database, { schema }) as AsyncTx;
    root = { db, tx, tail: Promise.resolve(), depth: 0 };
    roots.set(db, root);
    txRoots.set(tx, root);
  }
  return root;
}

/** The database a handle belongs to: the database itself, or the one a transaction handle runs on. */
export function databaseOf(db: ReadDb | AsyncTx): Db {
  // Services hold the database typed without its writes (ReadDb); the object is the whole handle.
  return txRoots.get(db)?.db ?? (db as Db);
}

const isTx = (db: ReadDb | AsyncTx): db is AsyncTx => txRoots.has(db);

/**
 * Runs `work` in a new transaction and answers what it answers; a throw rolls all of it back.
 * Given a transaction's `tx`, it is a savepoint: a throw rolls back only its own writes.
 */
export async function transaction<T>(db: ReadDb | AsyncTx, work: (tx: AsyncTx) => Promise<T> | T): Promise<T> {
  const root = rootFor(databaseOf(db));
  if (isTx(db)) return savepoint(root, work);
  if (inside.getStore() === root.db) {
    throw new Error("A transaction is already open here: pass its tx (atomic(tx, ...) or transaction(tx, ...)), not the database");
  }
  const turn = root.tail.then(() => run(root, work));
  root.tail = turn.then(
    () => undefined,
    () => undefined,
  );
  return turn;
}

/**
 * Runs `work` in the transaction `db` is the handle of (no savepoint), or in a new one. Joining
 * answers what `work` answers, at once when that is no promise (the message writer's batch).
 */
export function atomic<T>(db: ReadDb | AsyncTx, work: (tx: AsyncTx) => Promise<T> | T): Promise<T> | T {
  return isTx(db) ? work(db) : transaction(db, work);
}

async function run<T>(root: Root, work: (tx: AsyncTx) => Promise<T> | T): Promise<T> {
  const client = root.db.$client as Database;
  // IMMEDIATE takes the write lock now: another process (the moderation CLI) waits on
  // busy_timeout at BEGIN, not halfway through the body.
  client.run("BEGIN IMMEDIATE");
  let value: T;
  try {
    value = await inside.run(root.db, () => work(root.tx));
    client.run("COMMIT");
  } catch (error) {
    // The body failed, or the commit did (then the transaction is still open): nothing stays.
    if (client.inTransaction) client.run("ROLLBACK");
    throw error;
  }
  return value;
}

async function savepoint<T>(root: Root, work: (tx: AsyncTx) => Promise<T> | T): Promise<T> {
  const client = root.db.$client as Database;
  const name = `sp${++root.depth}`;
  client.run(`SAVEPOINT ${name}`);
  try {
    const value = await work(root.tx);
    client.run(`RELEASE ${name}`);
    return value;
  } catch (error) {
    client.run(`ROLLBACK TO ${name}`);
    client.run(`RELEASE ${name}`);
    throw error;
  } finally {
    root.depth -= 1;
  }
}
