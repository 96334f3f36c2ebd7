// The real server as a child process (`bun src/server.ts`), for tests of start-up, shutdown and
// restarts and for the browser suites: a temporary DATA_DIR (or a given one, to start again on the
// same data), a free port.
//
//   const server = await startServer();            // healthy before it returns
//   const guest = await server.guest("female");    // { token, user }
//   server.proc.kill("SIGTERM"); await server.exited(5_000);
//   const again = await startServer({ dataDir: server.dataDir });
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Database } from "bun:sqlite";
import postgres from "postgres";
import { cloneDatabase, dropDatabase, templateUrl } from "./pg-clone.ts";
import { freePort } from "./ports.ts";
import { stopChild } from "./children.ts";

const root = join(import.meta.dir, "..", "..");

export interface ServerProcess {
  proc: Bun.Subprocess<"ignore", "pipe", "pipe">;
  port: number;
  dataDir: string;
  url: string;
  wsUrl: string;
  /** A new guest account (18+ confirmed) through the public API. */
  guest(gender?: "female" | "male"): Promise<{ token: string; user: { id: number } }>;
  /** The exit code, or an error if the process is still running after `withinMs`. */
  exited(withinMs: number): Promise<number>;
  /** Kills it (SIGKILL) if it still runs; for finally blocks. */
  kill(): Promise<void>;
  /** Everything it printed so far (stdout and stderr), for failure messages and log checks. */
  output(): string;
  /** SIGTERM (SIGKILL after 3 s), then its data folder and database are removed. */
  stop(): Promise<void>;
}

const made: string[] = [];
/** On a PostgreSQL run: each data folder's own database, so a restart on the same folder finds its data. */
const databases = new Map<string, string>();

/** Removes every data folder startServer made (and their databases); call from afterAll. */
export function removeServerData(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
  for (const url of databases.values()) dropDatabase(url);
  databases.clear();
}

function removeData(dataDir: string): void {
  const at = made.indexOf(dataDir);
  if (at >= 0) {
    made.splice(at, 1);
    rmSync(dataDir, { recursive: true, force: true });
  }
  const url = databases.get(dataDir);
  if (url) dropDatabase(url);
  databases.delete(dataDir);
}

/**
 * Raw SQL (`?` for each value) on the database of the server that runs on `dataDir`: its SQLite
 * file, opened read-only and closed again, or its own PostgreSQL database on a PostgreSQL run.
 */
export async function serverSql<Row = Record<string, unknown>>(dataDir: string, text: string, ...values: unknown[]): Promise<Row[]> {
  const url = databases.get(dataDir);
  if (!url) {
    const db = new Database(join(dataDir, "chat.sqlite"), { readonly: true });
    try {
      return db.query(text).all(...(values as never[])) as Row[];
    } finally {
      db.close();
    }
  }
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    let n = 0;
    return [...(await sql.unsafe<Row[]>(text.replace(/\?/g, () => `$${++n}`), values as never[]))];
  } finally {
    await sql.end();
  }
}

/** DATABASE_URL for a server on this folder: its own clone on a PostgreSQL run, none on SQLite. */
function databaseFor(dataDir: string): Record<string, string> {
  if (!templateUrl) return {};
  let url = databases.get(dataDir);
  if (!url) databases.set(dataDir, (url = cloneDatabase()));
  return { DATABASE_URL: url };
}

/** How long a child server may take to answer /healthz: generous, a loaded machine starts slowly. */
const HEALTHY_WITHIN_MS = 30_000;

/**
 * Starts `bun src/server.ts` and returns at once, healthy or not: for tests of a start-up that
 * fails. `startServer` is this plus the wait for /healthz.
 */
export function spawnServer(options: { dataDir?: string; env?: Record<string, string> } = {}) {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), "webchat-process-"));
  if (!options.dataDir) made.push(dataDir);
  const port = freePort();
  const proc = Bun.spawn([process.execPath, "src/server.ts"], {
    cwd: root,
    // Presence reaches strangers at once unless a test asks for the batches, as in tests/support/app.ts.
    env: { ...process.env, ...databaseFor(dataDir), DATA_DIR: dataDir, PORT: String(port), HOST: "127.0.0.1", LOG_LEVEL: process.env.TEST_SERVER_LOG_LEVEL ?? "warn", PRESENCE_BATCH_SECONDS: "0", ...options.env },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  return { proc, port, dataDir };
}

export async function startServer(options: { dataDir?: string; env?: Record<string, string>; healthyWithinMs?: number } = {}): Promise<ServerProcess> {
  const { proc, port, dataDir } = spawnServer(options);
  const url = `http://127.0.0.1:${port}`;
  // Read as it comes, so a talkative server never blocks on a full pipe.
  let printed = "";
  const drain = async (stream: ReadableStream<Uint8Array>) => {
    const decoder = new TextDecoder();
    for await (const chunk of stream) printed += decoder.decode(chunk, { stream: true });
  };
  const drained = Promise.all([drain(proc.stdout), drain(proc.stderr)]);
  const server: ServerProcess = {
    proc,
    port,
    dataDir,
    url,
    wsUrl: `ws://127.0.0.1:${port}`,
    async guest(gender = "female") {
      const r = await fetch(`${url}/api/guest/create`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ gender, adult: true }) });
      if (r.status !== 201 && r.status !== 200) throw new Error(`guest/create answered ${r.status}: ${await r.text()}`);
      return ((await r.json()) as { data: { token: string; user: { id: number } } }).data;
    },
    async exited(withinMs) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`the server was still running ${withinMs} ms later`)), withinMs);
      });
      try {
        return await Promise.race([proc.exited, late]);
      } finally {
        clearTimeout(timer);
      }
    },
    async kill() {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill("SIGKILL");
      await proc.exited;
    },
    output: () => printed,
    async stop() {
      await stopChild(proc);
      removeData(dataDir);
    },
  };
  const until = Date.now() + (options.healthyWithinMs ?? HEALTHY_WITHIN_MS);
  while (Date.now() < until) {
    if (proc.exitCode !== null) {
      await drained;
      throw new Error(`the server exited with ${proc.exitCode}: ${printed}`);
    }
    try {
      if ((await fetch(`${url}/healthz`)).ok) return server;
    } catch {}
    await Bun.sleep(50);
  }
  await server.kill();
  throw new Error(`the server did not become healthy within ${options.healthyWithinMs ?? HEALTHY_WITHIN_MS} ms:\n${printed}`);
}
