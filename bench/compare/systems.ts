// The three systems under test, each a child process on 127.0.0.1 pinned to core 0 (where taskset
// exists) with a fresh temporary database: the project (`bun src/server.ts`, rate limits opened
// wide, accounts made through its own guest sign-up), the Socket.IO + better-sqlite3 peer on Node
// and the raw Bun floor (both on the project's schema, accounts seeded before start).
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Target } from "../load/clients.ts";
import { freePort, removeFolder, SERVER_CORE, spawnChild, tempFolder, waitReady, type Child } from "./proc.ts";
import { seedUsers, type Account } from "./seed.ts";

export type SystemName = "project" | "peer" | "floor";
export const SYSTEMS: SystemName[] = ["project", "peer", "floor"];
export const LABELS: Record<SystemName, string> = { project: "this project", peer: "Socket.IO peer", floor: "raw Bun floor" };

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

/** Installs the peer's packages (socket.io, better-sqlite3, which builds from source here) on first use. */
export function ensurePeerInstalled(): void {
  const peer = join(ROOT, "bench", "peer");
  const ready = ["socket.io", "socket.io-client", "better-sqlite3/build/Release/better_sqlite3.node"].every((p) => existsSync(join(peer, "node_modules", p)));
  if (ready) return;
  console.log("Installing bench/peer (socket.io, better-sqlite3; the native build takes a minute or two)...");
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
  if (name === "project") return [process.execPath, ...profile, join(ROOT, "src", "server.ts")];
  if (name === "peer") return ["node", join(ROOT, "bench", "peer", "server.mjs")];
  return [process.execPath, join(ROOT, "bench", "floor", "server.ts")];
}

/**
 * Starts `name` with `accounts` signed-in users. `dataDir` reuses a project data folder (the
 * history figures seed it first); otherwise a fresh one is made and removed on stop.
 */
export async function start(name: SystemName, accounts: number, dataDir?: string): Promise<Running> {
  const dir = dataDir ?? tempFolder(`webchat-compare-${name}-`);
  const port = freePort();
  const dbFile = join(dir, "bench.sqlite");
  const seeded = name === "project" ? [] : seedUsers(dbFile, SECRET, accounts);
  const env: Record<string, string> =
    name === "project"
      ? { ...PROJECT_ENV, DATA_DIR: dir, HOST: "127.0.0.1", PORT: String(port), JWT_SECRET: SECRET }
      : { DB_FILE: dbFile, PORT: String(port), BENCH_SECRET: SECRET, NODE_ENV: "production", FLOOR_WAL_WORKER: process.env.FLOOR_WAL_WORKER ?? "1" };
  const child = spawnChild([...SERVER_CORE, ...command(name)], env, ROOT);
  const base = `http://127.0.0.1:${port}`;
  const stop = async () => {
    await child.stop();
    if (!dataDir) removeFolder(dir);
  };
  try {
    await waitReady(`${base}/healthz`, child);
    const made = name === "project" ? await signUp(base, accounts) : seeded;
    return { name, target: { protocol: name === "peer" ? "socketio" : "raw", base }, pid: child.proc.pid, dataDir: dir, accounts: made, child, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
