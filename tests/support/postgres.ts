// A fresh PostgreSQL database for one test file, on the machine's server (TEST_POSTGRES_URL, by
// default postgres://root@127.0.0.1:5432/postgres, trust authentication): made with CREATE
// DATABASE t_<random> and dropped by `drop()` (closing whatever still connects to it).
import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { TEST_POSTGRES_URL as ADMIN_URL } from "../../scripts/machine/postgres.ts";

export interface TestDatabase {
  /** DATABASE_URL of the new, empty database. */
  url: string;
  name: string;
  drop(): Promise<void>;
}

const admin = () => postgres(ADMIN_URL, { max: 1, onnotice: () => {} });

export async function freshDatabase(): Promise<TestDatabase> {
  const name = `t_${randomBytes(6).toString("hex")}`;
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
