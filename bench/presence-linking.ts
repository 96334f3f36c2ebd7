// How many Video Roulette pairings does an attacker need to link a partner to an account through
// presence? (issue 18, docs/DECISIONS.md "Issue 18: presence timing"). A model, not the server:
//
// - N candidate accounts besides the victim (those that fit what roulette shows of the partner:
//   gender, country, age), all watched by the attacker (many sockets and accounts) or read from
//   the people list; each alternates online and offline sessions of exponential length.
// - Each pairing ends with the victim closing the tab (the worst case: the attacker then knows the
//   end of the victim's session to the second from roulette_partner_disconnected). Pairings with
//   the same victim (the attacker recognises the face) happen at independent times.
// - The attacker keeps, per pairing, the candidates whose presence fits what the victim's must
//   look like, and intersects the kept sets across pairings; the victim is linked with more than
//   50% confidence once the set is the victim alone (each survivor is equally likely).
//   before: user_offline came `grace` after the disconnect, within `tolerance`;
//   batches only: shown online at the tick before, offline at the first tick after disconnect +
//     grace (the victim's batch); ticks every 30-60 s (uniform), net change only;
//   after (batches + hiding a roulette visit): the victim searched 10 s before the pairing, which
//     lasted 2 minutes. Either they were not shown yet (straight to roulette): shown offline at
//     every tick from before the pairing to 10 minutes after it; or they were shown online before
//     the search: offline at some tick within HIDE_MAX + one window after it. A candidate fitting
//     either is kept (the attacker does not know which case the victim was in).
//
//   bun bench/presence-linking.ts [trials]   (BATCH_MIN / BATCH_MAX: the batch window in seconds, 30 / 60)
const trials = Number(process.argv[2] ?? 200);
const MAX_PAIRINGS = 60;
const GRACE = 5;
const TOLERANCE = 0.5;
const BATCH = { min: Number(process.env.BATCH_MIN ?? 30), max: Number(process.env.BATCH_MAX ?? 60) };
const HIDE_MAX = 600;
const SEARCH = -10;
const PAIRING_END = 120;
const WATCH_AFTER = 600;

interface Profile {
  label: string;
  onMean: number;
  offMean: number;
}
const profiles: Profile[] = [
  { label: "sessions of 30 min, 4 h apart (11% online)", onMean: 30 * 60, offMean: 4 * 3600 },
  { label: "sessions of 10 min, 30 min apart (25% online)", onMean: 10 * 60, offMean: 30 * 60 },
];
const sizes = [50, 200, 1000];

const exp = (mean: number) => -Math.log(1 - Math.random()) * mean;

/** Announced-online intervals of one candidate around t = 0 (sessions merged across gaps shorter than the grace). */
function timeline(p: Profile, from: number, to: number): [number, number][] {
  let online = Math.random() < p.onMean / (p.onMean + p.offMean);
  let t = from;
  const spans: [number, number][] = [];
  let start = online ? from - 1 : 0;
  while (t < to) {
    const d = exp(online ? p.onMean : p.offMean);
    if (online) {
      spans.push([start, t + d + GRACE]);
    } else if (d > GRACE || spans.length === 0) {
      start = t + d;
    } else {
      // Back within the grace: one announced session.
      start = spans.pop()![0];
    }
    t += d;
    online = !online;
  }
  return spans;
}

const onlineAt = (spans: [number, number][], x: number) => spans.some(([a, b]) => a <= x && x < b);

/** Tick times every BATCH seconds (uniform) from an hour before 0 to `until`. */
function ticks(until: number): number[] {
  const out: number[] = [];
  for (let t = -3600 + Math.random() * BATCH.max; t < until; t += BATCH.min + Math.random() * (BATCH.max - BATCH.min)) out.push(t);
  return out;
}

type Defence = "before" | "batches" | "after";

/** Does an innocent candidate fit what the victim looks like in one pairing (the victim's tab closes at PAIRING_END)? */
function survives(p: Profile, defence: Defence): boolean {
  const spans = timeline(p, -3600, 2400);
  if (defence === "before") return spans.some(([, end]) => Math.abs(end - (PAIRING_END + GRACE)) <= TOLERANCE);
  const ts = ticks(2400);
  const shown = (t: number) => onlineAt(spans, t);
  if (defence === "batches") {
    const i = ts.findIndex((t) => t >= PAIRING_END + GRACE);
    return shown(ts[i - 1]!) && !shown(ts[i]!);
  }
  const lastBefore = (x: number) => ts[ts.findIndex((t) => t > x) - 1]!;
  // Straight to roulette: never shown from before the pairing to long after it.
  const neverShown = ts.every((t) => t < lastBefore(SEARCH) || t > PAIRING_END + WATCH_AFTER || !shown(t));
  // Shown before the search: goes offline within HIDE_MAX and one window after it.
  const hiddenLater = shown(lastBefore(SEARCH)) && ts.some((t) => t > SEARCH && t <= SEARCH + HIDE_MAX + BATCH.max && !shown(t));
  return neverShown || hiddenLater;
}

/** Pairings until only the victim is left (MAX_PAIRINGS + 1 if never). */
function pairingsNeeded(p: Profile, n: number, defence: Defence): number {
  let left = n;
  for (let k = 1; k <= MAX_PAIRINGS; k++) {
    let kept = 0;
    for (let i = 0; i < left; i++) if (survives(p, defence)) kept++;
    left = kept;
    if (left === 0) return k;
  }
  return MAX_PAIRINGS + 1;
}

const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]!;
const show = (x: number) => (x > MAX_PAIRINGS ? `>${MAX_PAIRINGS}` : String(x));

for (const p of profiles) {
  console.log(`\n${p.label}; ${trials} trials each; pairings to link with >50% confidence: median (90th percentile)`);
  console.log(`candidates | before (user_offline at the grace) | ${BATCH.min}-${BATCH.max} s batches only | batches + roulette visit hidden`);
  for (const n of sizes) {
    const cells = (["before", "batches", "after"] as const).map((d) => {
      const runs = Array.from({ length: trials }, () => pairingsNeeded(p, n, d));
      return `${show(quantile(runs, 0.5))} (${show(quantile(runs, 0.9))})`;
    });
    console.log(`${String(n).padStart(10)} | ${cells.join(" | ")}`);
  }
}
