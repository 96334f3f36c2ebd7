// How many Video Roulette pairings does an attacker need to link a partner to an account through
// presence? (issue 18, docs/DECISIONS.md "Issue 18: presence timing"). A model, not the server:
//
// - N candidate accounts besides the victim (those that fit what roulette shows of the partner:
//   gender, country, age), all watched by the attacker (many sockets and accounts) or read from
//   the people list; each alternates online and offline sessions of exponential length.
// - Each pairing ends with the victim closing the tab (the worst case: the attacker then knows the
//   end of the victim's session to the second from roulette_partner_disconnected). Pairings with
//   the same victim (the attacker recognises the face) happen at independent times.
// - Before: the attacker keeps the candidates whose user_offline came `grace` after the
//   disconnect, within `tolerance`. After: presence reaches strangers only at ticks every
//   30-60 s (uniform), with the net change; the attacker keeps the candidates shown online at the
//   tick before and offline at the first tick after disconnect + grace (the victim's batch).
// - Across pairings the kept sets are intersected; the victim is linked with more than 50%
//   confidence once the set is the victim alone (each survivor is equally likely).
//
//   bun bench/presence-linking.ts [trials]
const trials = Number(process.argv[2] ?? 200);
const MAX_PAIRINGS = 60;
const GRACE = 5;
const TOLERANCE = 0.5;
const BATCH = { min: 30, max: 60 };

interface Profile {
  label: string;
  onMean: number;
  offMean: number;
}
const profiles: Profile[] = [
  { label: "sessions of 30 min, 4 h apart (11% online)", onMean: 30 * 60, offMean: 4 * 3600 },
  { label: "sessions of 10 min, 30 min apart (25% online)", onMean: 10 * 60, offMean: 30 * 60 },
];
const sizes = [50, 200, 1000, 5000];

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

/** Ticks every BATCH seconds around 0: the tick before and the first tick at or after `x`. */
function ticksAround(x: number): [number, number] {
  let t = -3600 + Math.random() * BATCH.max;
  let prev = t;
  while (t < x) {
    prev = t;
    t += BATCH.min + Math.random() * (BATCH.max - BATCH.min);
  }
  return [prev, t];
}

/** Does an innocent candidate look like the victim in one pairing whose disconnect is at 0? */
function survives(p: Profile, batched: boolean): boolean {
  const spans = timeline(p, -3600, 600);
  if (!batched) return spans.some(([, end]) => Math.abs(end - GRACE) <= TOLERANCE);
  const [before, at] = ticksAround(GRACE);
  return onlineAt(spans, before) && !onlineAt(spans, at);
}

/** Pairings until only the victim is left (MAX_PAIRINGS + 1 if never). */
function pairingsNeeded(p: Profile, n: number, batched: boolean): number {
  let left = n;
  for (let k = 1; k <= MAX_PAIRINGS; k++) {
    let kept = 0;
    for (let i = 0; i < left; i++) if (survives(p, batched)) kept++;
    left = kept;
    if (left === 0) return k;
  }
  return MAX_PAIRINGS + 1;
}

const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]!;
const show = (x: number) => (x > MAX_PAIRINGS ? `>${MAX_PAIRINGS}` : String(x));

for (const p of profiles) {
  console.log(`\n${p.label}; ${trials} trials each; pairings to link with >50% confidence: median (90th percentile)`);
  console.log("candidates | before (user_offline at the grace) | after (30-60 s batches)");
  for (const n of sizes) {
    const before = Array.from({ length: trials }, () => pairingsNeeded(p, n, false));
    const after = Array.from({ length: trials }, () => pairingsNeeded(p, n, true));
    console.log(`${String(n).padStart(10)} | ${show(quantile(before, 0.5))} (${show(quantile(before, 0.9))}) | ${show(quantile(after, 0.5))} (${show(quantile(after, 0.9))})`);
  }
}
