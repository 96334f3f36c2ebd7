// Opening many signed-in sockets at once and holding them idle, in its own process: how long it
// takes to open them (bounded by `limitMs`: it stops and reports how many opened), and the
// server's resident memory before and after, read from /proc. Idle sockets are not read by
// JavaScript here, so the frames the server pushes to them cost this process little.
//   bun bench/load/sockets.ts <spec.json>     (written by bench/compare.ts)
import { rssKb } from "../compare/proc.ts";
import { connect, inBatches, type Client, type Target } from "./clients.ts";

export interface SocketsSpec {
  target: Target;
  tokens: string[];
  limitMs: number;
  serverPid: number;
}

export interface SocketsResult {
  asked: number;
  opened: number;
  failed: number;
  openMs: number;
  /** Server RSS before opening and 2 s after the last one opened, in KB. */
  rssBeforeKb: number;
  rssAfterKb: number;
  kbPerSocket: number;
}

const spec = (await Bun.file(process.argv[2]!).json()) as SocketsSpec;
const rssBeforeKb = rssKb(spec.serverPid);
const started = performance.now();
const deadline = Date.now() + spec.limitMs;
let failed = 0;
const opened = (
  await inBatches(spec.tokens.length, 100, deadline, (i) =>
    connect(spec.target, spec.tokens[i]!, Math.max(1000, deadline - Date.now())).catch(() => {
      failed++;
      return null;
    }),
  )
).filter((c): c is Client => c !== null);
const openMs = performance.now() - started;
await Bun.sleep(2000);
const rssAfterKb = rssKb(spec.serverPid);
for (const client of opened) client.close();
const result: SocketsResult = {
  asked: spec.tokens.length,
  opened: opened.length,
  failed,
  openMs,
  rssBeforeKb,
  rssAfterKb,
  kbPerSocket: opened.length > 0 ? (rssAfterKb - rssBeforeKb) / opened.length : NaN,
};
console.log(JSON.stringify(result));
process.exit(0);
