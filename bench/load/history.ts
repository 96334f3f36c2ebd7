// Read paths for a user with many messages, in its own process: each request is made `count`
// times one after another (after a few unmeasured ones) and timed end to end over loopback.
//   bun bench/load/history.ts <spec.json>     (written by bench/compare.ts)
import { quantile } from "./clients.ts";

export interface HistorySpec {
  base: string;
  count: number;
  requests: { label: string; path: string; token: string }[];
}

export type HistoryResult = Record<string, { p50: number; p99: number; status: number }>;

const spec = (await Bun.file(process.argv[2]!).json()) as HistorySpec;
const result: HistoryResult = {};
for (const { label, path, token } of spec.requests) {
  const get = async () => {
    const r = await fetch(`${spec.base}${path}`, { headers: { authorization: `Bearer ${token}` } });
    await r.arrayBuffer();
    return r.status;
  };
  let status = 0;
  for (let i = 0; i < 5; i++) status = await get();
  const times: number[] = [];
  for (let i = 0; i < spec.count; i++) {
    const started = performance.now();
    status = await get();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  result[label] = { p50: quantile(times, 0.5), p99: quantile(times, 0.99), status };
}
console.log(JSON.stringify(result));
process.exit(0);
