// Migrations on PostgreSQL run at start-up under pg_advisory_lock (src/storage/postgres.ts):
// instances that start together must apply each migration once, and all of them start.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import { is, Table } from "drizzle-orm";
import postgres from "postgres";
import * as pg from "../../db/pg/schema.ts";
import { freshDatabase, type TestDatabase } from "../support/postgres.ts";

let db: TestDatabase;
beforeAll(async () => {
  db = await freshDatabase();
});
afterAll(async () => {
  await db?.drop();
});

const root = join(import.meta.dir, "..", "..");

test("three processes migrating one empty database at once each finish, and each migration is applied once", async () => {
  const script = `import { migratePostgres } from "./src/storage/postgres.ts"; await migratePostgres(process.env.DATABASE_URL!); console.log("migrated");`;
  const runs = [0, 1, 2].map(() =>
    Bun.spawn([process.execPath, "-e", script], { cwd: root, env: { ...process.env, DATABASE_URL: db.url }, stdout: "pipe", stderr: "pipe" }),
  );
  const results = await Promise.all(runs.map(async (run) => ({ code: await run.exited, out: await new Response(run.stdout).text(), err: await new Response(run.stderr).text() })));
  for (const result of results) expect(result).toMatchObject({ code: 0, out: "migrated\n" });
  const sql = postgres(db.url, { max: 1, onnotice: () => {} });
  try {
    const applied = await sql`SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations`;
    const journal = (await Bun.file(join(root, "db", "migrations-pg", "meta", "_journal.json")).json()) as { entries: unknown[] };
    expect(applied[0]!.n).toBe(journal.entries.length);
    const tables = await sql`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name`;
    expect(tables.map((t) => t.table_name)).toContain("messages");
    expect(tables.length).toBe(Object.values(pg).filter((value) => is(value, Table)).length);
  } finally {
    await sql.end();
  }
});
