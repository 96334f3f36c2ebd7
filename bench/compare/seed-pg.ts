// The PostgreSQL side of seed.ts: a fresh database per system on the machine's server
// (BENCH_POSTGRES_URL, by default the tests' postgres://root@127.0.0.1:5432/postgres), migrated
// with the project's own migratePostgres (db/migrations-pg) and dropped on stop; users with signed
// sessions for the peer and the floor; many messages for the history figures, made by PostgreSQL
// itself from generate_series so a million rows take seconds, not a million round trips.
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import postgres from "postgres";
import { migratePostgres } from "../../src/storage/postgres.ts";
import { interrupted, onInterrupt } from "./proc.ts";
import { signToken, type Account } from "./seed.ts";

const ADMIN_URL = process.env.BENCH_POSTGRES_URL ?? process.env.TEST_POSTGRES_URL ?? "postgres://root@127.0.0.1:5432/postgres";
const made = new Set<string>();

const connect = (url: string) => postgres(url, { max: 1, onnotice: () => {} });

async function admin(statement: string): Promise<void> {
  const sql = connect(ADMIN_URL);
  try {
    await sql.unsafe(statement);
  } finally {
    await sql.end();
  }
}

export interface BenchDatabase {
  url: string;
  drop(): Promise<void>;
}

/** A new database named bench_<random>, migrated unless `migrated` is false (the project migrates its own at start-up). */
export async function freshDatabase(migrated: boolean): Promise<BenchDatabase> {
  const name = `bench_${randomBytes(6).toString("hex")}`;
  await admin(`CREATE DATABASE ${name}`);
  made.add(name);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const drop = async () => {
    // FORCE: a killed server's connections may linger for a moment.
    await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    made.delete(name);
  };
  try {
    // Made while the interrupt's clean-up ran: it may have missed this one.
    if (interrupted()) throw new Error("interrupted");
    if (migrated) await migratePostgres(url.toString());
  } catch (error) {
    await drop();
    throw error;
  }
  return { url: url.toString(), drop };
}

/** Drops whatever a failed or interrupted bench left behind; compare.ts calls it on its way out. */
export async function dropAllDatabases(): Promise<void> {
  for (const name of made) await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {});
  made.clear();
}
onInterrupt(dropAllDatabases);

/** What the figures depend on: the server's version and how it commits, for the report's first line. */
export async function describeServer(): Promise<string> {
  const sql = connect(ADMIN_URL);
  try {
    const show = async (name: string) => ((await sql.unsafe(`SHOW ${name}`)) as unknown as Record<string, string>[])[0]![name];
    return `PostgreSQL ${await show("server_version")} at ${new URL(ADMIN_URL).host} (synchronous_commit ${await show("synchronous_commit")}, fsync ${await show("fsync")}, shared_buffers ${await show("shared_buffers")}; not pinned)`;
  } finally {
    await sql.end();
  }
}

/**
 * The PostgreSQL server's postmaster when it runs on this machine (a backend's parent, read in
 * /proc), so the bench can count its CPU; null when it is elsewhere or not readable.
 */
export async function postmasterPid(): Promise<number | null> {
  const sql = connect(ADMIN_URL);
  try {
    const [{ pid }] = (await sql`SELECT pg_backend_pid() AS pid`) as unknown as [{ pid: number }];
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    // Where the server is another machine's, this pid is not a postgres process here.
    if (!/^Name:\s+postgres/m.test(status)) return null;
    return Number(/^PPid:\s+(\d+)/m.exec(status)?.[1]) || null;
  } catch {
    return null;
  } finally {
    await sql.end();
  }
}

/** `count` adult-confirmed users with one signed session each, as seedUsers writes them into SQLite. */
export async function seedUsersPg(url: string, secret: string, count: number): Promise<Account[]> {
  const sql = connect(url);
  try {
    const now = Date.now();
    const sessions = Array.from({ length: count }, () => randomBytes(16).toString("hex"));
    return await sql.begin(async (tx) => {
      const rows: Account[] = [];
      // Chunks: one statement may bind at most 65,535 parameters.
      for (let start = 0; start < count; start += 5000) {
        const index = Array.from({ length: Math.min(5000, count - start) }, (_, k) => start + k);
        const users = await tx<{ id: number }[]>`
          INSERT INTO users (username, username_key, name, gender, is_guest, last_seen, created_at, adult_confirmed_at)
          SELECT 'Guest_b' || i, lower('Guest_b' || i), 'Guest ' || i, CASE WHEN i % 2 = 0 THEN 'female' ELSE 'male' END, true, ${now}, ${now}, ${now}
          FROM unnest(${tx.array(index)}::int[]) WITH ORDINALITY AS t(i, n) ORDER BY n RETURNING id`;
        const ids = users.map((u) => u.id);
        await tx`INSERT INTO sessions (id, user_id, created_at, last_used_at)
          SELECT s, u, ${now}, ${now} FROM unnest(${tx.array(sessions.slice(start, start + ids.length))}::text[], ${tx.array(ids)}::int[]) AS t(s, u)`;
        ids.forEach((id, k) => rows.push({ id, token: signToken(secret, sessions[start + k]!), gender: (start + k) % 2 === 0 ? "female" : "male" }));
      }
      return rows;
    });
  } finally {
    await sql.end();
  }
}

/**
 * seedMessages for PostgreSQL: `count` text messages between `a` and `b` (alternating senders,
 * one a second, ending an hour ago), all read and delivered, and both sides of the conversation.
 */
export async function seedMessagesPg(url: string, a: number, b: number, count: number): Promise<void> {
  const sql = connect(url);
  try {
    const end = Date.now() - 3_600_000;
    const [lo, hi] = [Math.min(a, b), Math.max(a, b)];
    await sql`
      INSERT INTO messages (sender_id, receiver_id, pair_lo, pair_hi, content, message_type, created_at, delivered_at, read_at)
      SELECT CASE WHEN i % 2 = 0 THEN ${a}::int ELSE ${b}::int END, CASE WHEN i % 2 = 0 THEN ${b}::int ELSE ${a}::int END, ${lo}, ${hi},
             'seeded message ' || i, 'text', t, t, t
      FROM generate_series(0, ${count - 1}::int) AS i, LATERAL (SELECT ${end}::bigint - (${count}::bigint - i) * 1000 AS t) AS at`;
    for (const [owner, partner] of [[a, b], [b, a]] as const) {
      await sql`
        INSERT INTO conversations (owner_id, partner_id, last_message_id, last_message_at, unread_count)
        SELECT ${owner}, ${partner}, id, created_at, 0 FROM messages WHERE pair_lo = ${lo} AND pair_hi = ${hi} ORDER BY created_at DESC, id DESC LIMIT 1
        ON CONFLICT (owner_id, partner_id) DO UPDATE SET last_message_id = excluded.last_message_id, last_message_at = excluded.last_message_at`;
    }
  } finally {
    await sql.end();
  }
}

/**
 * After a bulk load: the statistics and visibility map autovacuum would have made by the time a
 * live database held this many rows, so the planner and index-only scans see what they would.
 */
export async function settle(url: string): Promise<void> {
  const sql = connect(url);
  try {
    await sql`VACUUM ANALYZE messages, conversations, users, sessions`;
  } finally {
    await sql.end();
  }
}
