// Read paths for a user with many messages, in its own process: the requests are made in turn,
// `count` times each, one at a time (after unmeasured rounds), and timed end to end over loopback.
//   bun bench/load/history.ts <spec.json>     (written by bench/compare.ts)
import { quantile } from "./clients.ts";

export interface HistorySpec {
  base: string;
  count: number;
  requests: { label: string; path: string; token: string }[];
}

/** Unmeasured rounds of every request before the measured ones. */
const WARM_UP = 100;

export type HistoryResult = Record<string, { p50: number; p99: number; status: number }>;

const spec = (await Bun.file(process.argv[2]!).json()) as HistorySpec;

/** One request, read to its end; its status. */
async function get(path: string, token: string): Promise<number> {
  const r = await fetch(`${spec.base}${path}`, { headers: { authorization: `Bearer ${token}` } });
  await r.arrayBuffer();
  return r.status;
}

// Warm-up: a server that has run for a while has compiled these paths and prepared their
// statements on its pool's connections; the first few hundred requests of a fresh process have
// not (measured first, the first label's p50 was twice the others' on the same data).
for (let i = 0; i < WARM_UP; i++) for (const { path, token } of spec.requests) await get(path, token);
// Round-robin, so a pause of the server (a collection, a timer's work) falls on every label alike.
const times = spec.requests.map(() => [] as number[]);
const status = spec.requests.map(() => 0);
for (let i = 0; i < spec.count; i++) {
  for (let k = 0; k < spec.requests.length; k++) {
    const { path, token } = spec.requests[k]!;
    const started = performance.now();
    status[k] = await get(path, token);
    times[k]!.push(performance.now() - started);
  }
}
const result: HistoryResult = {};
spec.requests.forEach(({ label }, k) => {
  const sorted = times[k]!.sort((a, b) => a - b);
  result[label] = { p50: quantile(sorted, 0.5), p99: quantile(sorted, 0.99), status: status[k]! };
});
console.log(JSON.stringify(result));
process.exit(0);
