// A fresh PostgreSQL database for one test file, on the machine's server (TEST_POSTGRES_URL, by
// default postgres://root@127.0.0.1:5432/postgres, trust authentication): made with CREATE
// DATABASE t_<random> and dropped by `drop()` (closing whatever still connects to it). `rows()`
// reads it from outside, as a check that a server really stored there.
import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { TEST_POSTGRES_URL as ADMIN_URL } from "../../scripts/machine/postgres.ts";

export interface TestDatabase {
  /** DATABASE_URL of the new, empty database. */
  url: string;
  name: string;
  /** The rows of one statement, on a connection of its own (closed after it). */
  rows<T = Record<string, unknown>>(statement: string): Promise<T[]>;
  drop(): Promise<void>;
}

const admin = () => postgres(ADMIN_URL, { max: 1, onnotice: () => {} });

/** `prefix` names what made it (the suite's run database is `t_run_...`). */
export async function freshDatabase(prefix = "t_"): Promise<TestDatabase> {
  const name = `${prefix}${randomBytes(6).toString("hex")}`;
  const sql = admin();
  try {
    await sql.unsafe(`CREATE DATABASE ${name}`);
  } finally {
    await sql.end();
  }
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    async rows<T>(statement: string) {
      const sql = postgres(url.toString(), { max: 1, onnotice: () => {} });
      try {
        return [...(await sql.unsafe(statement))] as T[];
      } finally {
        await sql.end();
      }
    },
    async drop() {
      const sql = admin();
      try {
        await sql.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await sql.end();
      }
    },
  };
}
