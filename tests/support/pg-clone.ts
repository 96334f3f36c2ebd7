// The fast suite's run on PostgreSQL (`npm test` runs it with DATABASE_URL naming a database the
// harness made and migrated, scripts/test-all.ts): every test app gets a database of its own,
// copied from that one with CREATE DATABASE ... TEMPLATE (about 70 ms here, the schema already in),
// so tests see an empty database as they do on SQLite. Made synchronously (psql), because
// makeTestApp is; dropped when the app closes, and whatever a test left is dropped with the run.
import { engine } from "../../src/storage/engine.ts";

/** The run's migrated database, which every clone copies; null when this run is on SQLite. */
export const templateUrl: string | null = engine === "postgres" ? process.env.DATABASE_URL!.trim() : null;

let counter = 0;

function psql(url: URL, statement: string): void {
  const admin = new URL(url);
  admin.pathname = "/postgres";
  const done = Bun.spawnSync(["psql", admin.toString(), "-v", "ON_ERROR_STOP=1", "-qc", statement], { stdout: "pipe", stderr: "pipe" });
  if (done.exitCode !== 0) throw new Error(`psql ${statement}: ${done.stderr.toString().trim()}`);
}

/** A new database with the run's schema and no rows; its URL. */
export function cloneDatabase(): string {
  if (!templateUrl) throw new Error("cloneDatabase: this run is on SQLite (DATABASE_URL is not set)");
  const template = new URL(templateUrl);
  const name = `${template.pathname.slice(1)}_${process.pid}_${++counter}`;
  psql(template, `CREATE DATABASE ${name} TEMPLATE ${template.pathname.slice(1)}`);
  const url = new URL(template);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Drops a clone (whatever still connects to it is cut off). */
export function dropDatabase(url: string): void {
  const parsed = new URL(url);
  psql(parsed, `DROP DATABASE IF EXISTS ${parsed.pathname.slice(1)} WITH (FORCE)`);
}
