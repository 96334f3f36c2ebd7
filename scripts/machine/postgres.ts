// After the packages: the tests' PostgreSQL must also answer. `npm test` connects to
// TEST_POSTGRES_URL (default postgres://root@127.0.0.1:5432/postgres); where it does not answer
// and this is root on Debian, it starts the stopped clusters (pg_ctlcluster) and makes the missing
// superuser role (Debian's clusters have only "postgres"); otherwise, or if that was not enough,
// it stops the run with one line naming the fix.
import postgres from "postgres";

export const TEST_POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? "postgres://root@127.0.0.1:5432/postgres";

/** What a failed connection calls for: start a cluster, make the role, or only a person can fix it. */
export type PostgresFix = "start" | "role" | "stop";

/** postgres.js errors: a socket error has a `code` like ECONNREFUSED; a server refusal, a SQLSTATE. */
export function fixFor(error: { code?: string }, root: boolean): PostgresFix {
  if (!root) return "stop";
  if (error.code === "ECONNREFUSED" || error.code === "ENOENT" || error.code === "CONNECT_TIMEOUT") return "start";
  // 28000: role "root" does not exist (an unknown role is refused before any password is asked).
  if (error.code === "28000") return "role";
  return "stop";
}

export function stopLine(url: string, error: { code?: string; message?: string }): string {
  const user = new URL(url).username || "root";
  return `PostgreSQL does not answer the tests at ${url} (${error.code ?? ""} ${error.message ?? ""}): start it (pg_ctlcluster 15 main start), give "${user}" a superuser role that can log in over TCP (trust for 127.0.0.1 in pg_hba.conf, or a password in TEST_POSTGRES_URL), or point TEST_POSTGRES_URL at a server that does.`.replace(/\s+/g, " ");
}

async function reach(url: string): Promise<{ code?: string; message?: string } | null> {
  const sql = postgres(url, { max: 1, connect_timeout: 3, onnotice: () => {} });
  try {
    await sql`SELECT 1`;
    return null;
  } catch (error) {
    return error as { code?: string; message?: string };
  } finally {
    await sql.end({ timeout: 1 });
  }
}

async function run(cmd: string[]): Promise<boolean> {
  const proc = Bun.spawn(cmd, { stdout: "ignore", stderr: "inherit" });
  return (await proc.exited) === 0;
}

/** True when the tests' PostgreSQL answers; false after printing the one line that says why not. */
export async function ensurePostgres(url = TEST_POSTGRES_URL): Promise<boolean> {
  const root = process.getuid?.() === 0;
  for (let attempt = 0; attempt < 3; attempt++) {
    const error = await reach(url);
    if (!error) return true;
    const fix = fixFor(error, root);
    if (fix === "start" && attempt === 0) {
      const list = Bun.spawnSync(["pg_lsclusters", "--no-header"]).stdout.toString();
      const stopped = list.split("\n").map((line) => line.trim().split(/\s+/)).filter((cols) => cols.length >= 4 && cols[3] === "down");
      if (stopped.length === 0) return fail(url, error);
      console.log(`Starting PostgreSQL for the tests (${stopped.map((c) => `pg_ctlcluster ${c[0]} ${c[1]} start`).join("; ")})`);
      for (const [version, cluster] of stopped) await run(["pg_ctlcluster", version!, cluster!, "start"]);
      continue;
    }
    if (fix === "role" && attempt < 2) {
      const user = new URL(url).username || "root";
      console.log(`Making the PostgreSQL role "${user}" for the tests`);
      await run(["runuser", "-u", "postgres", "--", "psql", "-qc", `CREATE ROLE "${user.replace(/"/g, "")}" SUPERUSER LOGIN`]);
      continue;
    }
    return fail(url, error);
  }
  return fail(url, (await reach(url)) ?? {});
}

function fail(url: string, error: { code?: string; message?: string }): false {
  console.error(stopLine(url, error));
  return false;
}
