// PostgreSQL's plans for what a service function runs: the function runs on a drizzle handle of
// its own whose logger keeps each statement, then each is explained on one connection where
// sequential scans, hash joins and merge joins are priced out. A test database holds a handful of
// rows, for which the planner rightly prefers a scan; priced out, a plan that still scans or sorts
// means no index can serve the query.
import { afterAll } from "bun:test";
import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import * as schema from "../../db/pg/schema.ts";
import type { Db } from "../../src/storage/index.ts";

export function pgPlans(url: () => string) {
  let client: ReturnType<typeof postgres> | null = null;
  const open = async () => {
    if (client) return client;
    client = postgres(url(), { max: 1, onnotice: () => {} });
    for (const setting of ["enable_seqscan", "enable_hashjoin", "enable_mergejoin", "enable_bitmapscan"]) await client.unsafe(`SET ${setting} = off`);
    return client;
  };
  afterAll(async () => {
    await client?.end();
  });
  return {
    /** The plan of each statement `run` made, as EXPLAIN's text. */
    async of(run: (db: Db) => unknown): Promise<string[]> {
      const sql = await open();
      const captured: { query: string; params: unknown[] }[] = [];
      const db = drizzle(sql, { schema, logger: { logQuery: (query, params) => void captured.push({ query, params }) } }) as unknown as Db;
      await run(db);
      const plans: string[] = [];
      for (const { query, params } of captured) {
        const rows = await sql.unsafe(`EXPLAIN ${query}`, params as never[]);
        plans.push(rows.map((row) => row["QUERY PLAN"] as string).join("\n"));
      }
      return plans;
    },
  };
}
