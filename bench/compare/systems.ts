// The six systems under test, each a child process on 127.0.0.1 pinned to core 0 (where taskset
// exists) with a fresh database: the project (`bun src/server.ts`, rate limits opened wide,
// accounts made through its own guest sign-up), the Socket.IO peer on Node and the raw Bun floor
// (both on the project's schema, accounts seeded before start), each on SQLite in a temporary
// folder and again on PostgreSQL ("-pg": a database of its own on the machine's server, made
// before start and dropped on stop; the project gets DATABASE_URL and migrates it itself). The
// PostgreSQL server is shared and not pinned: its CPU is not in the server's figures (the
// message load reads it apart).
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Target } from "../load/clients.ts";
import { freePort, removeFolder, SERVER_CORE, spawnChild, tempFolder, waitReady, type Child } from "./proc.ts";
import { freshDatabase, seedUsersPg, type BenchDatabase } from "./seed-pg.ts";
import { seedUsers, type Account } from "./seed.ts";

export type SystemName = "project" | "peer" | "floor" | "project-pg" | "peer-pg" | "floor-pg";
export const SYSTEMS: SystemName[] = ["project", "peer", "floor", "project-pg", "peer-pg", "floor-pg"];
export const LABELS: Record<SystemName, string> = {
  project: "this project",
  peer: "Socket.IO peer",
  floor: "raw Bun floor",
  "project-pg": "this project, PG",
  "peer-pg": "Socket.IO peer, PG",
  "floor-pg": "raw Bun floor, PG",
};
export const onPostgres = (name: SystemName): boolean => name.endsWith("-pg");
/** The same system on SQLite: what the report pairs and divides by engine. */
export const kindOf = (name: SystemName): "project" | "peer" | "floor" => name.replace(/-pg$/, "") as "project" | "peer" | "floor";

export interface Running {
  name: SystemName;
  target: Target;
  pid: number;
  dataDir: string;
  accounts: Account[];
  child: Child;
  stop(): Promise<void>;
}

const ROOT = join(import.meta.dir, "..", "..");
const SECRET = "compare-bench-secret-compare-bench-secret!";

/** What the project runs with: today's defaults, but every limit that would measure itself instead of the server opened wide. */
export const PROJECT_ENV: Record<string, string> = {
  SOCKET_RATE_LIMIT: "1000000:1000000",
  SIGNUP_RATE_LIMIT: "1000000",
  SOCKET_CAP: "10:1000000",
  ROULETTE_WAITING_PER_ADDRESS: "1000000",
  SOCKET_CONNECT_LIMIT: "1000000",
  PROFILE_RATE_LIMIT: "1000000",
  LOG_LEVEL: "warn",
};

/** Installs the peer's packages (socket.io, postgres, better-sqlite3, which builds from source here) on first use. */
export function ensurePeerInstalled(): void {
  const peer = join(ROOT, "bench", "peer");
  const ready = ["socket.io", "socket.io-client", "postgres", "better-sqlite3/build/Release/better_sqlite3.node"].every((p) => existsSync(join(peer, "node_modules", p)));
  if (ready) return;
  console.log("Installing bench/peer (socket.io, postgres, better-sqlite3; the native build takes a minute or two)...");
  const result = Bun.spawnSync(["npm", "install", "--prefix", peer, "--no-audit", "--no-fund"], { stdout: "inherit", stderr: "inherit", timeout: 600_000 });
  if (result.exitCode !== 0) throw new Error("npm install --prefix bench/peer failed");
}

async function guest(base: string, gender: "male" | "female"): Promise<Account> {
  const r = await fetch(`${base}/api/guest/create`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ gender, adult: true }) });
  if (r.status !== 201) throw new Error(`guest creation answered ${r.status}: ${await r.text()}`);
  const { data } = (await r.json()) as { data: { token: string; user: { id: number } } };
  return { id: data.user.id, token: data.token, gender };
}

/** Accounts through the project's own sign-up: even indexes female, odd male (as seedUsers). */
export async function signUp(base: string, count: number): Promise<Account[]> {
  const out: Account[] = [];
  for (let start = 0; start < count; start += 20) {
    const batch = Array.from({ length: Math.min(20, count - start) }, (_, k) => guest(base, (start + k) % 2 === 0 ? "female" : "male"));
    out.push(...(await Promise.all(batch)));
  }
  return out;
}

function command(name: SystemName): string[] {
  // BENCH_PROFILE_DIR=<dir>: the project writes a CPU profile (markdown, by function) there on exit.
  const profile = process.env.BENCH_PROFILE_DIR ? ["--cpu-prof-md", `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`] : [];
  const pg = onPostgres(name) ? "-pg" : "";
  if (kindOf(name) === "project") return [process.execPath, ...profile, join(ROOT, "src", "server.ts")];
  if (kindOf(name) === "peer") return ["node", join(ROOT, "bench", "peer", `server${pg}.mjs`)];
  return [process.execPath, join(ROOT, "bench", "floor", `server${pg}.ts`)];
}

/** Where a system keeps its data; `kept` ones belong to the caller (the history figures seed them between starts). */
export interface Store {
  dataDir: string;
  database: BenchDatabase | null;
}

/** A fresh data folder, and for a PostgreSQL system a fresh database (migrated here unless the project migrates its own). */
export async function freshStore(name: SystemName): Promise<Store> {
  const dataDir = tempFolder(`webchat-compare-${name}-`);
  try {
    return { dataDir, database: onPostgres(name) ? await freshDatabase(kindOf(name) !== "project") : null };
  } catch (error) {
    removeFolder(dataDir);
    throw error;
  }
}

export async function dropStore(store: Store): Promise<void> {
  removeFolder(store.dataDir);
  await store.database?.drop();
}

/**
 * Starts `name` with `accounts` signed-in users. `kept` reuses a store (the history figures seed
 * it first); otherwise a fresh one is made and dropped on stop.
 */
export async function start(name: SystemName, accounts: number, kept?: Store): Promise<Running> {
  const store = kept ?? (await freshStore(name));
  const dir = store.dataDir;
  const url = store.database?.url ?? null;
  const project = kindOf(name) === "project";
  let child: Child | undefined;
  const stop = async () => {
    await child?.stop();
    if (!kept) await dropStore(store);
  };
  try {
    const port = freePort();
    const dbFile = join(dir, "bench.sqlite");
    const seeded = project ? [] : url ? await seedUsersPg(url, SECRET, accounts) : seedUsers(dbFile, SECRET, accounts);
    // Emptied on SQLite: a DATABASE_URL in the bench's own environment must not move the SQLite systems.
    const database = { DATABASE_URL: url ?? "" };
    const env: Record<string, string> = project
      ? { ...PROJECT_ENV, ...database, DATA_DIR: dir, HOST: "127.0.0.1", PORT: String(port), JWT_SECRET: SECRET }
      : { ...database, DB_FILE: dbFile, PORT: String(port), BENCH_SECRET: SECRET, NODE_ENV: "production", FLOOR_WAL_WORKER: process.env.FLOOR_WAL_WORKER ?? "1" };
    child = spawnChild([...SERVER_CORE, ...command(name)], env, ROOT);
    const base = `http://127.0.0.1:${port}`;
    await waitReady(`${base}/healthz`, child);
    const made = project ? await signUp(base, accounts) : seeded;
    return { name, target: { protocol: kindOf(name) === "peer" ? "socketio" : "raw", base }, pid: child.proc.pid, dataDir: dir, accounts: made, child, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
