// Roulette pairings with many people waiting, in its own process. `waiting` users (women looking
// for men) queue first and cannot pair among themselves; `seekers` (men looking for women) then
// loop: search, wait for roulette_partner_found, roulette_next. A woman whose partner left
// searches again, so the queue stays about `waiting` long. Counts pairings in the measured
// window and times join (roulette_search sent) to pair (roulette_partner_found received).
// With `seekersTarget` (the cluster run) the men connect there and the women to `target`: every
// pairing is across instances.
//   bun bench/load/roulette.ts <spec.json>     (written by bench/compare.ts)
import { connect, inBatches, quantile, type Client, type Target } from "./clients.ts";

export interface RouletteSpec {
  target: Target;
  waiting: string[];
  seekers: string[];
  /** Where the seekers connect, when not to `target`. */
  seekersTarget?: Target;
  warmupMs: number;
  measureMs: number;
}

export interface RouletteResult {
  waiting: number;
  seekers: number;
  pairsPerSecond: number;
  p50: number;
  p99: number;
  timeouts: number;
  errors: Record<string, number>;
}

const spec = (await Bun.file(process.argv[2]!).json()) as RouletteSpec;
const deadline = Date.now() + 60_000;
const errors: Record<string, number> = {};
const count = (code: string) => (errors[code] = (errors[code] ?? 0) + 1);

const women = await inBatches(spec.waiting.length, 100, deadline, (i) => connect(spec.target, spec.waiting[i]!));
const queued = await Promise.all(
  women.map(async (woman) => {
    const again = () => woman.emit("roulette_search", { filters: { gender: "male", country: "any" } });
    woman.on("roulette_partner_next", again);
    woman.on("roulette_partner_disconnected", again);
    woman.on("roulette_partner_found", () => {});
    const answer = await woman.request("roulette_search", { filters: { gender: "male", country: "any" } });
    if (answer.error) count(answer.error.code);
    return answer.data?.status === "searching";
  }),
);
const men = await inBatches(spec.seekers.length, 100, deadline, (i) => connect(spec.seekersTarget ?? spec.target, spec.seekers[i]!));

let measuring = false;
let stopping = false;
let pairs = 0;
let timeouts = 0;
const latencies: number[] = [];

async function seek(man: Client): Promise<void> {
  let found: (() => void) | null = null;
  man.on("roulette_partner_found", () => found?.());
  while (!stopping) {
    const counted = measuring;
    const started = performance.now();
    const paired = new Promise<boolean>((resolve) => {
      found = () => resolve(true);
      setTimeout(() => resolve(false), 5000);
    });
    const answer = await man.request("roulette_search", { filters: { gender: "female", country: "any" } });
    if (answer.error) {
      count(answer.error.code);
      if (answer.error.code === "closed") return;
      continue;
    }
    if (!(await paired)) {
      timeouts++;
      continue;
    }
    if (measuring) pairs++;
    if (counted && measuring) latencies.push(performance.now() - started);
    man.emit("roulette_next", {});
  }
}

const loops = men.map(seek);
await Bun.sleep(spec.warmupMs);
const windowStart = performance.now();
measuring = true;
await Bun.sleep(spec.measureMs);
measuring = false;
const seconds = (performance.now() - windowStart) / 1000;
stopping = true;
await Promise.race([Promise.all(loops), Bun.sleep(6000)]);
for (const client of [...women, ...men]) client.close();
latencies.sort((a, b) => a - b);
const result: RouletteResult = {
  waiting: queued.filter(Boolean).length,
  seekers: men.length,
  pairsPerSecond: pairs / seconds,
  p50: quantile(latencies, 0.5),
  p99: quantile(latencies, 0.99),
  timeouts,
  errors,
};
console.log(JSON.stringify(result));
process.exit(0);
