// Opening many signed-in sockets at once and holding them idle, in its own process: how long it
// takes to open them (bounded by `limitMs`: it stops and reports how many opened), and the
// server's resident memory before and once it is quiet again, read from /proc. Idle sockets are
// not read by JavaScript here, so the frames the server pushes to them cost this process little.
// With `holdMs` (the "idle sockets held" figure, raw protocol only) it also counts how many were
// still open after holding them that long; several of these processes share one count, since one
// process may hold at most about 19,900 sockets (the open-files limit here is 20,000, hard).
//   bun bench/load/sockets.ts <spec.json>     (written by bench/compare.ts)
import { cpuMicros, rssKb } from "../compare/proc.ts";
import { connect, inBatches, type Client, type Target } from "./clients.ts";

export interface SocketsSpec {
  target: Target;
  tokens: string[];
  limitMs: number;
  serverPid: number;
  holdMs?: number;
}

export interface SocketsResult {
  asked: number;
  opened: number;
  failed: number;
  openMs: number;
  /** Server RSS before opening, and once it was quiet after the last one opened (at least 2 s), in KB. */
  rssBeforeKb: number;
  rssAfterKb: number;
  kbPerSocket: number;
  /** With `holdMs`: sockets still open at the end of the hold, and the server's RSS then. */
  stillOpen?: number;
  rssHeldKb?: number;
}

/** Waits at least 2 s, then until the server used under 5% of a core for half a second (at most 10 s more). */
async function quietServer(pid: number): Promise<void> {
  await Bun.sleep(2000);
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const before = cpuMicros(pid);
    await Bun.sleep(500);
    if (cpuMicros(pid) - before < 25_000) return;
  }
}

interface Held {
  close(): void;
  open(): boolean;
}

/** A bare WebSocket that only records whether it is still open: the cheapest client to hold many of. */
function hold(base: string, token: string, limitMs: number): Promise<Held> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${base.replace("http", "ws")}/ws?token=${encodeURIComponent(token)}`);
    const timer = setTimeout(() => {
      ws.close();
      reject(new Error(`a socket did not open within ${limitMs} ms`));
    }, limitMs);
    ws.onopen = () => {
      clearTimeout(timer);
      resolve({ close: () => ws.close(), open: () => ws.readyState === WebSocket.OPEN });
    };
    ws.onerror = () => {
      clearTimeout(timer);
      reject(new Error("a socket was refused"));
    };
  });
}

const spec = (await Bun.file(process.argv[2]!).json()) as SocketsSpec;
const rssBeforeKb = rssKb(spec.serverPid);
const started = performance.now();
const deadline = Date.now() + spec.limitMs;
let failed = 0;
const open = (i: number): Promise<Client | Held> =>
  spec.holdMs !== undefined ? hold(spec.target.base, spec.tokens[i]!, Math.max(1000, deadline - Date.now())) : connect(spec.target, spec.tokens[i]!, Math.max(1000, deadline - Date.now()));
const opened = (
  await inBatches(spec.tokens.length, 100, deadline, (i) =>
    open(i).catch(() => {
      failed++;
      return null;
    }),
  )
).filter((c): c is Client | Held => c !== null);
const openMs = performance.now() - started;
await quietServer(spec.serverPid);
const rssAfterKb = rssKb(spec.serverPid);
let held: Pick<SocketsResult, "stillOpen" | "rssHeldKb"> = {};
if (spec.holdMs !== undefined) {
  await Bun.sleep(spec.holdMs);
  held = { stillOpen: opened.filter((c) => "open" in c && c.open()).length, rssHeldKb: rssKb(spec.serverPid) };
}
for (const client of opened) client.close();
const result: SocketsResult = {
  asked: spec.tokens.length,
  opened: opened.length,
  failed,
  openMs,
  rssBeforeKb,
  rssAfterKb,
  kbPerSocket: opened.length > 0 ? (rssAfterKb - rssBeforeKb) / opened.length : NaN,
  ...held,
};
console.log(JSON.stringify(result));
process.exit(0);
