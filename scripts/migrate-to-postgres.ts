// One-way copy of the SQLite database in DATA_DIR into an empty PostgreSQL database, for an
// operator whose audience outgrew one server:
//   DATA_DIR=./data DATABASE_URL=postgres://user@host/db bun scripts/migrate-to-postgres.ts
// Stop the server first (the copy reads one consistent snapshot, but writes made after it are not
// copied). The target gets db/migrations-pg first (under the same advisory lock as start-up),
// then every row of every table in one transaction: an interrupted copy leaves the target empty,
// and a target that already holds users is refused. Ids are kept, and each identity sequence is
// moved past the largest id copied. Uploads and evidence stay files in DATA_DIR (give every
// instance that folder), and so does secret.key unless JWT_SECRET is set.
import { Database } from "bun:sqlite";
import { getTableColumns, getTableName, sql, type Table } from "drizzle-orm";
import { drizzle } from "drizzle-orm/postgres-js";
import { join, resolve } from "node:path";
import postgres from "postgres";
import * as pg from "../db/pg/schema.ts";
import * as lite from "../db/schema.ts";
import { openStorage } from "../src/db.ts";
import { migratePostgres } from "../src/storage/postgres.ts";

/** Parents before children (foreign keys are checked row by row). */
export const COPY_ORDER = [
  "users",
  "interestTags",
  "sessions",
  "pushSubscriptions",
  "messages",
  "messageReactions",
  "conversations",
  "blocks",
  "rouletteBlocks",
  "userDevices",
  "deviceCarriers",
  "reports",
  "callMeetings",
  "rouletteSessions",
  "bans",
  "banDevices",
  "appeals",
  "warnings",
  "auditLog",
] as const satisfies readonly (keyof typeof pg & keyof typeof lite)[];

/** Rows per INSERT: well under PostgreSQL's 65,535 bound values for the widest table (users, 28 columns). */
const BATCH = 1000;

export interface CopyReport {
  /** Rows per table (SQL name), equal on both sides once the copy committed. */
  counts: Record<string, number>;
}

export async function copySqliteToPostgres(dataDir: string, url: string, log: (line: string) => void = () => {}): Promise<CopyReport> {
  // Brings the source to the latest SQLite migration first, as the server would.
  openStorage(dataDir).sqlite.close();
  const source = new Database(join(dataDir, "chat.sqlite"), { readonly: true });
  await migratePostgres(url);
  const client = postgres(url, { max: 1, onnotice: () => {} });
  const target = drizzle(client, { schema: pg });
  const counts: Record<string, number> = {};
  try {
    const [{ n }] = (await client`SELECT count(*)::int AS n FROM users`) as unknown as [{ n: number }];
    if (n > 0) throw new Error(`the target database already holds ${n} users: copy into an empty database`);
    // One read transaction on the source: every table from the same moment.
    source.exec("BEGIN");
    await target.transaction(async (tx) => {
      for (const key of COPY_ORDER) {
        const table = pg[key] as Table;
        const name = getTableName(table);
        const columns = Object.entries(getTableColumns(table));
        const flags = new Set(columns.filter(([, column]) => column.dataType === "boolean").map(([field]) => field));
        const select = `SELECT ${columns.map(([field, column]) => `"${column.name}" AS "${field}"`).join(", ")} FROM "${name}"`;
        let batch: Record<string, unknown>[] = [];
        let copied = 0;
        const flush = async () => {
          if (batch.length === 0) return;
          await tx.insert(table).values(batch as never);
          copied += batch.length;
          batch = [];
        };
        // iterate() streams the rows: memory stays one batch whatever the table's size.
        for (const row of source.query<Record<string, unknown>, []>(select).iterate()) {
          for (const field of flags) row[field] = row[field] === null ? null : row[field] !== 0;
          batch.push(row);
          if (batch.length === BATCH) await flush();
        }
        await flush();
        counts[name] = copied;
        log(`${name}: ${copied} rows`);
      }
      // New rows continue after the copied ids.
      for (const key of COPY_ORDER) {
        const table = pg[key] as Table;
        const identity = Object.values(getTableColumns(table)).find((column) => (column as { generatedIdentity?: unknown }).generatedIdentity !== undefined);
        if (!identity) continue;
        const name = getTableName(table);
        await tx.execute(
          sql.raw(`SELECT setval(pg_get_serial_sequence('"${name}"', '${identity.name}'), coalesce((SELECT max("${identity.name}") FROM "${name}"), 0) + 1, false)`),
        );
      }
    });
  } finally {
    if (source.inTransaction) source.exec("COMMIT");
    source.close();
    await client.end();
  }
  return { counts };
}

if (import.meta.main) {
  const url = process.env.DATABASE_URL?.trim() ?? "";
  if (!/^postgres(ql)?:\/\//.test(url)) {
    console.error("usage: DATA_DIR=./data DATABASE_URL=postgres://user@host/db bun scripts/migrate-to-postgres.ts");
    process.exit(2);
  }
  const dataDir = resolve(process.env.DATA_DIR?.trim() || "./data");
  try {
    const { counts } = await copySqliteToPostgres(dataDir, url, (line) => console.log(line));
    const total = Object.values(counts).reduce((sum, n) => sum + n, 0);
    console.log(`Copied ${total} rows from ${join(dataDir, "chat.sqlite")} into PostgreSQL.`);
  } catch (error) {
    console.error(`The copy failed and left the target as it was: ${(error as Error).message}`);
    process.exit(1);
  }
}
