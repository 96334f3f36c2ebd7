// The fast suite's PostgreSQL run (issue 22): a fresh database made and migrated for the run on
// the machine's PostgreSQL (TEST_POSTGRES_URL), which every test app copies
// (tests/support/pg-clone.ts); dropped afterwards with every copy a test left behind.
import postgres from "postgres";
import { migratePostgres } from "../../src/storage/postgres.ts";
import { freshDatabase } from "../../tests/support/postgres.ts";
import { TEST_POSTGRES_URL } from "./postgres.ts";

export interface PostgresRun {
  /** DATABASE_URL for `bun test`: the migrated database the apps copy. */
  url: string;
  drop(): Promise<void>;
}

/**
 * Copies whose run database is gone: a run drops its copies and then itself, but a copy made by a
 * test's child process after that list was read outlives it (one copy in some whole runs). No run
 * still going has lost its own database, so these belong to none; dropped before a new run.
 */
async function dropOrphanCopies(): Promise<void> {
  const sql = postgres(TEST_POSTGRES_URL, { max: 1, onnotice: () => {} });
  try {
    const names = (await sql<{ datname: string }[]>`SELECT datname FROM pg_database WHERE datname LIKE ${"t\\_run\\_%"}`).map((r) => r.datname);
    const runs = new Set(names.filter((name) => /^t_run_[0-9a-f]+$/.test(name)));
    for (const name of names) {
      const parent = /^(t_run_[0-9a-f]+)_\d+_\d+$/.exec(name)?.[1];
      if (parent && !runs.has(parent)) await sql.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    }
  } finally {
    await sql.end();
  }
}

export async function preparePostgresRun(): Promise<PostgresRun> {
  await dropOrphanCopies();
  const run = await freshDatabase("t_run_");
  await migratePostgres(run.url);
  return {
    url: run.url,
    async drop() {
      // The copies first (named after the run's database, their template), then the run's own.
      const sql = postgres(TEST_POSTGRES_URL, { max: 1, onnotice: () => {} });
      try {
        const copies = await sql<{ datname: string }[]>`SELECT datname FROM pg_database WHERE datname LIKE ${`${run.name}\\_%`}`;
        for (const { datname } of copies) await sql.unsafe(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
      } finally {
        await sql.end();
      }
      await run.drop();
    },
  };
}

if (import.meta.main) {
  // `bun scripts/machine/pg-run.ts`: prints a DATABASE_URL to run tests by hand on PostgreSQL
  // (`DATABASE_URL=<it> bun test tests/x`); drop it afterwards with `dropdb`.
  console.log((await preparePostgresRun()).url);
}
