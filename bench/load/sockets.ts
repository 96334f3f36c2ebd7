// Opening many signed-in sockets at once and holding them idle, in its own process: how long it
// takes to open them (bounded by `limitMs`: it stops and reports how many opened), and the
// server's resident memory before and once it is quiet and has collected again, read from /proc. Idle sockets are
// not read by JavaScript here, so the frames the server pushes to them cost this process little.
// With `holdMs` (the "idle sockets held" figure, raw protocol only) it also counts how many were
// still open after holding them that long; several of these processes share one count, since one
// process may hold at most about 19,900 sockets (the open-files limit here is 20,000, hard).
// With `rehearse` (the cluster run, whose accounts are seeded straight into the database) every
// socket is opened and closed once first, so the figures are of signed-in users the server has
// seen, as after the single-instance runs' sign-ups: a user's first sign-in reads and caches their
// rows and leaves garbage the heap keeps (about 35 KB a socket here, on either engine); the cold
// figure is reported too.
//   bun bench/load/sockets.ts <spec.json>     (written by bench/compare.ts)
import { cpuMicros, rssKb, settledRssKb } from "../compare/proc.ts";
import { connect, inBatches, type Client, type Target } from "./clients.ts";

export interface SocketsSpec {
  target: Target;
  tokens: string[];
  limitMs: number;
  serverPid: number;
  holdMs?: number;
  rehearse?: boolean;
}

export interface SocketsResult {
  asked: number;
  opened: number;
  failed: number;
  openMs: number;
  /** Server RSS before the first opening, and once it was quiet after the last one opened and collected its garbage (settledRssKb), in KB. */
  rssBeforeKb: number;
  rssAfterKb: number;
  kbPerSocket: number;
  /** With `holdMs`: sockets still open at the end of the hold, and the server's RSS then. */
  stillOpen?: number;
  rssHeldKb?: number;
  /** With `rehearse`: the first opening's RSS growth per socket (each user's first sign-in), and its time. */
  coldKbPerSocket?: number;
  coldOpenMs?: number;
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

/**
 * Held sockets ping every 15 s, as the browser does: the server closes a /ws socket silent for
 * WS_IDLE_TIMEOUT_SECONDS (45 s), which an opening of many thousands on a slow machine outlasts.
 * One timer for all: each second a fifteenth of them.
 */
const PING = JSON.stringify({ event: "ping", data: {} });
const pinged: WebSocket[] = [];
let pingTurn = 0;
setInterval(() => {
  const turn = pingTurn++ % 15;
  for (let i = turn; i < pinged.length; i += 15) if (pinged[i]!.readyState === WebSocket.OPEN) pinged[i]!.send(PING);
}, 1000).unref();

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
      pinged.push(ws);
      resolve({ close: () => ws.close(), open: () => ws.readyState === WebSocket.OPEN });
    };
    ws.onerror = () => {
      clearTimeout(timer);
      reject(new Error("a socket was refused"));
    };
  });
}

const spec = (await Bun.file(process.argv[2]!).json()) as SocketsSpec;
let failed = 0;

async function openAll(): Promise<{ opened: (Client | Held)[]; openMs: number }> {
  const started = performance.now();
  const deadline = Date.now() + spec.limitMs;
  failed = 0;
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
  return { opened, openMs: performance.now() - started };
}

// Both figures are growth since before the first opening: memory a closed socket left behind is
// collected only when the heap next grows (not within a quiet minute here), so a baseline read
// after closing the rehearsal's sockets sat above the reading with the same number held again.
const rssBeforeKb = await settledRssKb(spec.serverPid);
let cold: Pick<SocketsResult, "coldKbPerSocket" | "coldOpenMs"> = {};
if (spec.rehearse) {
  const first = await openAll();
  // Progress on stderr: the bench shows the tail when this process fails or runs past its time.
  console.error(`first opening: ${first.opened.length} of ${spec.tokens.length} in ${(first.openMs / 1000).toFixed(1)} s`);
  await quietServer(spec.serverPid);
  cold = { coldKbPerSocket: first.opened.length > 0 ? ((await settledRssKb(spec.serverPid)) - rssBeforeKb) / first.opened.length : NaN, coldOpenMs: first.openMs };
  for (const client of first.opened) client.close();
  await quietServer(spec.serverPid);
}
const { opened, openMs } = await openAll();
console.error(`opened: ${opened.length} of ${spec.tokens.length} in ${(openMs / 1000).toFixed(1)} s`);
await quietServer(spec.serverPid);
const rssAfterKb = await settledRssKb(spec.serverPid);
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
  ...cold,
};
console.log(JSON.stringify(result));
process.exit(0);
