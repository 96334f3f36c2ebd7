// DATABASE_URL, DATABASE_POOL and DATABASE_STATEMENT_TIMEOUT_MS: read strictly, and what the pool
// opens on the machine's PostgreSQL honours them (checked from PostgreSQL's side).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { ConfigError } from "../../src/config.ts";
import { databaseConfig } from "../../src/storage/config.ts";
import { migratePostgres, openPostgres, type PostgresStorage } from "../../src/storage/postgres.ts";
import { isDatabaseUnavailable } from "../../src/storage/unavailable.ts";
import { freshDatabase, type TestDatabase } from "../support/postgres.ts";

describe("the database settings", () => {
  test("no DATABASE_URL keeps SQLite; a URL gets the defaults", () => {
    expect(databaseConfig({})).toBeNull();
    expect(databaseConfig({ DATABASE_URL: "  " })).toBeNull();
    expect(databaseConfig({ DATABASE_URL: "postgres://app@db:5432/chat" })).toEqual({ url: "postgres://app@db:5432/chat", pool: 10, statementTimeoutMs: 5000 });
    expect(databaseConfig({ DATABASE_URL: "postgresql://db/chat", DATABASE_POOL: "3", DATABASE_STATEMENT_TIMEOUT_MS: "250" })).toEqual({ url: "postgresql://db/chat", pool: 3, statementTimeoutMs: 250 });
  });

  test("anything else stops start-up with one line naming the setting", () => {
    const refusal = (env: Record<string, string>) => {
      try {
        databaseConfig(env);
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        return (error as Error).message;
      }
      throw new Error("accepted");
    };
    expect(refusal({ DATABASE_URL: "mysql://db/chat" })).toStartWith("DATABASE_URL must be a postgres://");
    expect(refusal({ DATABASE_URL: "/var/lib/chat.sqlite" })).toStartWith("DATABASE_URL must be a postgres://");
    for (const pool of ["0", "-1", "2.5", "ten", "1001"]) expect(refusal({ DATABASE_URL: "postgres://db/x", DATABASE_POOL: pool })).toStartWith("DATABASE_POOL must be a whole number from 1 to 1000");
    for (const ms of ["99", "1e4", "600001"]) expect(refusal({ DATABASE_URL: "postgres://db/x", DATABASE_STATEMENT_TIMEOUT_MS: ms })).toStartWith("DATABASE_STATEMENT_TIMEOUT_MS must be a whole number from 100 to 600000");
  });
});

describe("the pool on PostgreSQL", () => {
  let database: TestDatabase;
  let storage: PostgresStorage;
  beforeAll(async () => {
    database = await freshDatabase();
    await migratePostgres(database.url);
    storage = openPostgres(databaseConfig({ DATABASE_URL: database.url, DATABASE_POOL: "2", DATABASE_STATEMENT_TIMEOUT_MS: "300" })!);
  });
  afterAll(async () => {
    await storage?.close(1);
    await database?.drop();
  });

  test("reads the migrated schema", async () => {
    const rows = await storage.db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM users`);
    expect(rows[0]!.n).toBe(0);
  });

  test("every connection carries the statement timeout; a longer statement is cancelled as unavailable", async () => {
    const shown = await storage.db.execute<{ statement_timeout: string }>(sql`SHOW statement_timeout`);
    expect(shown[0]!.statement_timeout).toBe("300ms");
    let error: unknown;
    await storage.db.execute(sql`SELECT pg_sleep(2)`).catch((e) => (error = e));
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  test("holds at most DATABASE_POOL connections however many statements wait", async () => {
    const busy = Array.from({ length: 8 }, () => storage.db.execute(sql`SELECT pg_sleep(0.1)`));
    await Bun.sleep(50);
    const open = await storage.db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`);
    await Promise.all(busy);
    // This statement holds one of the two; the other is the only other one there is.
    expect(open[0]!.n).toBeLessThanOrEqual(1);
  });
});
