// Opens the engine the configuration names, ready for the app: SQLite in DATA_DIR (the embedded
// default, src/db.ts), or PostgreSQL at DATABASE_URL with its migrations applied under the
// advisory lock (./postgres.ts). Start-up (server.ts), the operator's scripts and the tests open
// storage through here.
import type { Database } from "bun:sqlite";
import type { Config } from "../config.ts";
import { ConfigError } from "../config.ts";
import { openStorage, type Db } from "../db.ts";
import type { SkeletonFill } from "../users/names/backfill.ts";
import { engine } from "./engine.ts";
import { migratePostgres, openPostgres } from "./postgres.ts";

export interface OpenStorage {
  engine: "sqlite" | "postgres";
  /** The whole drizzle handle (services get it as the seam's `Db`). */
  db: Db;
  /** SQLite's own connection (the WAL checkpointer, the operator's scripts); null on PostgreSQL. */
  sqlite: Database | null;
  /** What opening SQLite did for usernames made before skeletons; none on PostgreSQL. */
  skeletons: SkeletonFill;
  close(): Promise<void>;
}

export async function openDatabase(config: Pick<Config, "dataDir" | "database">): Promise<OpenStorage> {
  const wanted = config.database === null ? "sqlite" : "postgres";
  // The process's tables and statements were chosen from the environment when it started
  // (./engine.ts); a configuration that says otherwise would mix dialects.
  if (wanted !== engine) throw new ConfigError(`DATABASE_URL must be set in the environment before start-up to use PostgreSQL (this process runs ${engine})`);
  if (config.database === null) {
    const { db, sqlite, skeletons } = openStorage(config.dataDir);
    return { engine: "sqlite", db, sqlite, skeletons, close: async () => sqlite.close() };
  }
  await migratePostgres(config.database.url);
  const pg = openPostgres(config.database);
  return { engine: "postgres", db: pg.db as unknown as Db, sqlite: null, skeletons: { filled: 0, clashes: 0 }, close: () => pg.close() };
}
