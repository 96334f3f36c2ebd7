// Roulette pairings with many people waiting, in its own process. `waiting` users (women looking
// for men) queue first and cannot pair among themselves; `seekers` (men looking for women) then
// loop: search, wait for roulette_partner_found, roulette_next. A woman whose partner left
// searches again, so the queue stays about `waiting` long. Counts pairings in the measured
// window and times join (roulette_search sent) to pair (roulette_partner_found received).
// With `seekersTarget` (the cluster run) the men connect there and the women to `target`: every
// pairing is across instances.
// With `offeredPerSecond`, searches are paced instead: one falls due every 1/rate s and starts on
// whichever seeker is free (a seeker is busy from its search to its Next), and each is timed from
// when it fell due, so a search that waited for a free seeker counts that wait. A closed loop
// measures the most pairings a second, at whatever latency the saturated machine gives; paced,
// the latency at a given rate (as messages are measured at 2,000/s offered).
//   bun bench/load/roulette.ts <spec.json>     (written by bench/compare.ts)
import { Fifo } from "../../src/roulette/fifo.ts";
import { connect, inBatches, quantile, type Client, type Target } from "./clients.ts";

export interface RouletteSpec {
  target: Target;
  waiting: string[];
  seekers: string[];
  /** Where the seekers connect, when not to `target`. */
  seekersTarget?: Target;
  warmupMs: number;
  measureMs: number;
  /** Searches a second to start, paced; absent: every seeker searches again as soon as it can. */
  offeredPerSecond?: number;
}

export interface RouletteResult {
  waiting: number;
  seekers: number;
  pairsPerSecond: number;
  /** The paced rate, when the searches were paced. */
  offeredPerSecond: number | null;
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

const founds = new Map<Client, () => void>();
for (const man of men) man.on("roulette_partner_found", () => founds.get(man)?.());

/** One search, from `dueAt` (when it started, or fell due when paced) to the partner found, then Next; false once the socket closed. */
async function searchOnce(man: Client, dueAt: number): Promise<boolean> {
  const counted = measuring;
  const paired = new Promise<boolean>((resolve) => {
    founds.set(man, () => resolve(true));
    setTimeout(() => resolve(false), 5000);
  });
  const answer = await man.request("roulette_search", { filters: { gender: "female", country: "any" } });
  if (answer.error) {
    count(answer.error.code);
    return answer.error.code !== "closed";
  }
  if (!(await paired)) {
    timeouts++;
    return true;
  }
  if (measuring) pairs++;
  if (counted && measuring) latencies.push(performance.now() - dueAt);
  man.emit("roulette_next", {});
  return true;
}

async function seek(man: Client): Promise<void> {
  while (!stopping && (await searchOnce(man, performance.now())));
}

/** Paced: due searches wait (in order) for a free seeker; at most a second's worth wait, the rest are dropped and counted. */
async function pace(rate: number): Promise<void> {
  const free = [...men];
  // The roulette's own queue: shift() on an array moves every due search behind it.
  const due = new Fifo<number>();
  const interval = 1000 / rate;
  let next = performance.now();
  let busy = 0;
  while (!stopping) {
    const now = performance.now();
    for (; next <= now; next += interval) {
      if (due.length < rate) due.push(next);
      else count("paced_backlog_full");
    }
    while (due.length > 0 && free.length > 0) {
      const man = free.pop()!;
      busy++;
      void searchOnce(man, due.shift()!).then((open) => {
        busy--;
        if (open) free.push(man);
      });
    }
    await Bun.sleep(1);
  }
  // The searches under way end by themselves (5 s at most each); the caller's wait is bounded too.
  while (busy > 0) await Bun.sleep(5);
}

const loops = spec.offeredPerSecond ? [pace(spec.offeredPerSecond)] : men.map(seek);
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
  offeredPerSecond: spec.offeredPerSecond ?? null,
  p50: quantile(latencies, 0.5),
  p99: quantile(latencies, 0.99),
  timeouts,
  errors,
};
console.log(JSON.stringify(result));
process.exit(0);
