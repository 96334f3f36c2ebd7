// PostgreSQL behind the storage seam (DATABASE_URL=postgres://...): postgres.js through
// drizzle-orm/postgres-js (STACK-NOTES "Redis and PostgreSQL from Bun 1.4.4": it reconnects by
// itself after a server restart and needs no error handler to keep the process alive).
// Migrations from db/migrations-pg run at start-up under a PostgreSQL advisory lock, so instances
// that start together apply each migration once: the first takes the lock and migrates, the
// others wait for it and then find nothing left to do (drizzle's own migrator takes no lock).
import { drizzle } from "drizzle-orm/postgres-js";
import { migrate } from "drizzle-orm/postgres-js/migrator";
import { join } from "node:path";
import postgres from "postgres";
import * as schema from "../../db/pg/schema.ts";
import type { DatabaseConfig } from "./config.ts";

export type PgDb = ReturnType<typeof drizzle<typeof schema>>;

export const pgMigrationsFolder = join(import.meta.dir, "..", "..", "db", "migrations-pg");

/** The advisory lock's key: any constant every instance of this product shares ("webchat" in ASCII, cut to 63 bits). */
export const MIGRATION_LOCK = 0x77656263686174n;

/** Applies db/migrations-pg under the advisory lock; several processes may call it at once. */
export async function migratePostgres(url: string, migrationsFolder = pgMigrationsFolder): Promise<void> {
  // One connection: an advisory lock belongs to the session that took it, and drizzle's
  // migrator must run on that very session.
  const client = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await client`SELECT pg_advisory_lock(${MIGRATION_LOCK.toString()}::bigint)`;
    try {
      await migrate(drizzle(client), { migrationsFolder });
    } finally {
      await client`SELECT pg_advisory_unlock(${MIGRATION_LOCK.toString()}::bigint)`;
    }
  } finally {
    await client.end();
  }
}

export interface PostgresStorage {
  db: PgDb;
  /** Closes the pool, letting statements under way finish for up to `timeoutSeconds`. */
  close(timeoutSeconds?: number): Promise<void>;
}

/** The longest a closed pooled connection waits before it connects again, in seconds. */
export const RECONNECT_WAIT_MAX_S = 0.5;

/** The least time a new connection may take, in seconds (postgres.js's own default is 30). */
const CONNECT_TIMEOUT_S = 10;

/** A closing pool's wait before reconnecting: longer than any shutdown. */
const NEVER_S = 24 * 3600;

/** postgres.js's own wait before reconnecting (its default `backoff`), in seconds: kept below the cap. */
const postgresJsBackoff = (retries: number) => (0.5 + Math.random() / 2) * Math.min(3 ** retries / 100, 20);

/**
 * The pool every request shares: at most `pool` connections, each with the statement timeout set
 * by PostgreSQL itself (a startup parameter), so a statement stuck behind a lock or a slow disk is
 * cancelled there and answered 503 (storage/unavailable.ts) instead of holding a connection.
 * While the server is away a request must be refused as quickly: postgres.js's own waits before
 * reconnecting grow to 20 s and its connect timeout is 30 s, and a query queued on a closed
 * connection waits all of that (measured here: requests hanging 15 s and more while PostgreSQL
 * stopped and started, tests/cluster/faults.test.ts). So a connection tries again within half a
 * second, each attempt a cheap refusal while the server is down, and connecting may take
 * CONNECT_TIMEOUT_S (or the statement timeout, if longer). Not less: a connection asked for while
 * PostgreSQL is starting may wait seconds for it, and with 2 s (the statement timeout of the
 * fault test) a read right after the restart answered 503 when it could have waited.
 */
export function openPostgres(config: DatabaseConfig): PostgresStorage {
  // Once the pool is closing, a connection that closes does not come back: a statement still
  // queued on it (work finishing as the process stops) would otherwise connect again every half
  // second after the pool ended, and postgres.js then rejects it where nothing listens (seen in
  // the tests, whose databases are dropped right after their pool ends).
  let closing = false;
  const client = postgres(config.url, {
    max: config.pool,
    onnotice: () => {},
    connection: { statement_timeout: config.statementTimeoutMs },
    backoff: (retries: number) => (closing ? NEVER_S : Math.min(postgresJsBackoff(retries), RECONNECT_WAIT_MAX_S)),
    connect_timeout: Math.max(CONNECT_TIMEOUT_S, Math.ceil(config.statementTimeoutMs / 1000)),
  });
  const close = (timeoutSeconds = 5) => {
    closing = true;
    return client.end({ timeout: timeoutSeconds });
  };
  return { db: drizzle(client, { schema }), close };
}
