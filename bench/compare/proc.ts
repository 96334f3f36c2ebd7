// Child processes of the comparison bench and what /proc says about them. Every child and
// temporary folder is registered here: children are killed and folders removed when the bench
// ends, fails or is interrupted.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Subprocess } from "bun";

const children = new Set<Subprocess>();
const folders = new Set<string>();
/** Asynchronous clean-ups (PostgreSQL databases) run on an interrupt, for at most 5 s. */
const cleanups: (() => Promise<void>)[] = [];
let stopping = false;

/** True once interrupted: the bench goes on running until its clean-ups end, but starts nothing new. */
export const interrupted = (): boolean => stopping;

export function onInterrupt(cleanup: () => Promise<void>): void {
  cleanups.push(cleanup);
}

function killAll(): void {
  for (const child of children) child.kill("SIGKILL");
  children.clear();
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
  folders.clear();
}

/** A fresh folder under the system's temporary directory, removed by `removeFolder` or at exit. */
export function tempFolder(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  folders.add(dir);
  return dir;
}

export function removeFolder(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  folders.delete(dir);
}

process.on("exit", killAll);
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    stopping = true;
    killAll();
    void Promise.race([Promise.allSettled(cleanups.map((c) => c())), Bun.sleep(5000)]).finally(() => process.exit(130));
  });
}

/** `taskset -c <core>` when the machine has taskset and that core, else nothing. */
export function pinned(core: number): string[] {
  const hasTaskset = ["/usr/bin/taskset", "/bin/taskset"].some(existsSync);
  return hasTaskset && navigator.hardwareConcurrency > core ? ["taskset", "-c", String(core)] : [];
}

export const SERVER_CORE = pinned(0);
export const LOAD_CORE = pinned(1);

export interface Child {
  proc: Subprocess<"ignore", "pipe", "pipe">;
  /** The last 4 KB the child wrote to stdout and stderr. */
  log(): string;
  /** Everything the child wrote to stdout. */
  stdout(): string;
  stop(): Promise<void>;
}

function collect(stream: ReadableStream<Uint8Array>, keep: (text: string) => void): void {
  const decoder = new TextDecoder();
  void (async () => {
    for await (const chunk of stream) keep(decoder.decode(chunk));
  })();
}

export function spawnChild(cmd: string[], env: Record<string, string>, cwd?: string): Child {
  if (stopping) throw new Error("interrupted");
  const proc = Bun.spawn(cmd, { env: { ...process.env, ...env }, cwd, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  children.add(proc);
  let tail = "";
  let out = "";
  collect(proc.stdout, (text) => {
    out += text;
    tail = (tail + text).slice(-4096);
  });
  collect(proc.stderr, (text) => (tail = (tail + text).slice(-4096)));
  return {
    proc,
    log: () => tail,
    stdout: () => out,
    async stop() {
      // A profiled server (BENCH_PROFILE_DIR) writes its profile on a clean exit only.
      if (process.env.BENCH_PROFILE_DIR) {
        proc.kill("SIGTERM");
        await Promise.race([proc.exited, Bun.sleep(5000)]);
      }
      proc.kill("SIGKILL");
      await proc.exited;
      children.delete(proc);
    },
  };
}

/**
 * The real server's pid: with taskset in front, Bun's child is taskset, which execs the server,
 * so the pid is the same process.
 */
export const pidOf = (child: Child): number => child.proc.pid;

/** User plus system CPU time of a process, in microseconds. */
export function cpuMicros(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // Fields after the command name (which may hold spaces) start after the last ")".
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks * 1e6) / 100;
}

/**
 * CPU time of a PostgreSQL server on this machine: its postmaster and every process it started
 * (backends, WAL writer, checkpointer), in microseconds. A backend that exits in between takes
 * its time with it; the pools of the systems keep theirs open.
 */
export function treeCpuMicros(rootPid: number): number {
  let total = cpuMicros(rootPid);
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      // The parent's pid is the second field after the command name.
      if (Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === rootPid) total += cpuMicros(Number(entry));
    } catch {
      // Gone between the listing and the read.
    }
  }
  return total;
}

/** Resident memory of a process, in KB. */
export function rssKb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
}

/** A port that was free a moment ago on 127.0.0.1. */
export function freePort(): number {
  const server = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = server.port;
  server.stop(true);
  return port;
}

/** Polls `url` until it answers 200, the child exits, or `limitMs` passes. */
export async function waitReady(url: string, child: Child, limitMs = 30_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (Date.now() < deadline) {
    if (child.proc.exitCode !== null) throw new Error(`the server exited: ${child.log().trim()}`);
    const ok = await fetch(url).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await Bun.sleep(100);
  }
  throw new Error(`the server did not answer ${url} within ${limitMs / 1000} s: ${child.log().trim()}`);
}

/**
 * The server's RSS once its collector has run: the lowest reading every 250 ms, taken once no
 * lower one came for SETTLE_QUIET_MS (at most SETTLE_MAX_MS in all). JSC collects on a timer, not
 * when a burst ends, so a reading right after an opening counts the opening's garbage with the
 * sockets (tens of MB either way at 5,000 sockets; seen here: 239 MB quiet after an opening,
 * 147 MB ten seconds later with every socket still open).
 */
export const SETTLE_QUIET_MS = 10_000;
export const SETTLE_MAX_MS = 60_000;
export async function settledRssKb(pid: number): Promise<number> {
  let lowest = rssKb(pid);
  const started = Date.now();
  let lowered = started;
  while (Date.now() - lowered < SETTLE_QUIET_MS && Date.now() - started < SETTLE_MAX_MS) {
    await Bun.sleep(250);
    const now = rssKb(pid);
    if (now < lowest) {
      lowest = now;
      lowered = Date.now();
    }
  }
  return lowest;
}
