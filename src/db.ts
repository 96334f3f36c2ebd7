// Opens the SQLite file, tunes it for one small server and applies the committed migrations.
import { Database } from "bun:sqlite";
import { drizzle } from "drizzle-orm/bun-sqlite";
import { migrate } from "drizzle-orm/bun-sqlite/migrator";
import { join } from "node:path";
import * as schema from "../db/schema.ts";
import { fillUsernameSkeletons, type SkeletonFill } from "./users/names/backfill.ts";

/**
 * The engine's whole drizzle handle. Only this file, the storage seam's transactions and the
 * statements prepared per database see it; services hold `ReadDb` (the seam's `Db`).
 */
export type Db = ReturnType<typeof drizzle<typeof schema>>;

/**
 * The database as services hold it (the seam's `Db`): reads only. A write takes its turn through
 * `transaction`/`atomic` and goes through their `tx` (src/storage/sqlite-transactions.ts): on
 * SQLite's one connection a write made beside an open transaction would land inside it.
 */
export type ReadDb = Omit<Db, "insert" | "update" | "delete" | "transaction">;

export interface Storage {
  db: Db;
  sqlite: Database;
  /** What start-up did for usernames made before skeletons (start-up logs clashes). */
  skeletons: SkeletonFill;
}

const migrationsFolder = join(import.meta.dir, "..", "db", "migrations");

export function openStorage(dataDir: string): Storage {
  const sqlite = new Database(join(dataDir, "chat.sqlite"), { create: true, strict: true });
  sqlite.exec("PRAGMA journal_mode = WAL");
  sqlite.exec("PRAGMA foreign_keys = ON");
  sqlite.exec("PRAGMA busy_timeout = 5000");
  // NORMAL is durable across a crash of the process (WAL); only a power loss can drop the
  // last transactions, which is the usual trade for a chat server.
  sqlite.exec("PRAGMA synchronous = NORMAL");
  const db = drizzle(sqlite, { schema });
  migrate(db, { migrationsFolder });
  return { db, sqlite, skeletons: fillUsernameSkeletons(sqlite) };
}
