// What one account can do to the server and to other people (issue 9), measured on a real server
// process over loopback: (a) sockets that never read while the server pushes to them, (c) a
// connect/close flood watched by another user, (b) decode bombs with another user's photo upload
// timed alongside (last, since an old server may still be decoding when it ends). Refusals (429,
// 503, 415...) are outcomes, counted and printed. Bounded: each part has its own time limit.
//   bun bench/abuse.ts                      (npm run bench:abuse)
//   SOCKETS=300 PER_USER=50 bun bench/abuse.ts   (more sockets per account than the caps allow)
//   PARTS=flood,bombs bun bench/abuse.ts          (some parts only)
import { startServer } from "./abuse/server.ts";
import { nonReadingSockets, type SocketsResult } from "./abuse/sockets.ts";
import { presenceFlood, type FloodResult } from "./abuse/flood.ts";
import { decodeBombs, type BombResult } from "./abuse/bombs.ts";
import { BENCH_ENV } from "./abuse/server.ts";

const num = (name: string, fallback: number) => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a number`);
  return value;
};

const options = {
  sockets: { sockets: num("SOCKETS", 1000), perUser: num("PER_USER", 10), perAddress: num("PER_ADDRESS", 50), senders: num("SENDERS", 100), pushSeconds: num("PUSH_SECONDS", 15), pushUsers: num("PUSH_USERS", 10) },
  flood: { seconds: num("FLOOD_SECONDS", 5), parallel: num("FLOOD_PARALLEL", 1), maxAttempts: num("FLOOD_MAX_ATTEMPTS", 10_000) },
  bombs: { parallel: num("BOMB_PARALLEL", 2), victimUploads: num("VICTIM_UPLOADS", 5), limitSeconds: num("BOMB_LIMIT_SECONDS", 60) },
};

const mb = (n: number) => `${n.toFixed(0)} MB`;
const counts = (c: Record<string, number>) =>
  Object.entries(c)
    .map(([k, v]) => `${k} x ${v}`)
    .join(", ") || "none";

function socketsLines(r: SocketsResult): string[] {
  const o = options.sockets;
  return [
    `(a) ${o.sockets} sockets that never read: ${r.users} accounts x ${o.perUser}, ${r.addresses} addresses x ${o.perAddress}`,
    `    upgrade answers: ${counts(r.upgrades)}; ${r.open} open`,
    `    ${o.senders} senders for ${o.pushSeconds} s to ${o.pushUsers} of the accounts (${o.pushUsers * o.perUser} sockets): ${counts(r.messages)}; about ${r.pushedMbPerSocket.toFixed(1)} MB of new_message frames for each of those sockets`,
    `    server RSS: ${mb(r.rss.before)} before, ${mb(r.rss.open)} with the sockets open, peak ${mb(r.rss.peak)} while pushing, ${mb(r.rss.after)} 1 s after`,
    `    kernel TCP buffers (both ends, loopback): peak ${mb(r.tcpBuffersPeakMb)}`,
    `    sockets the server closed: ${r.closedByServer} of ${r.open}`,
  ];
}

function floodLines(r: FloodResult): string[] {
  return [
    `(c) connect/close flood of one account for ${options.flood.seconds} s (${options.flood.parallel} at a time)`,
    `    ${r.attempts} attempts; upgrade answers: ${counts(r.upgrades)}`,
    `    a watching socket received ${r.online} user_online and ${r.offline} user_offline about the flooder`,
  ];
}

function bombLines(r: BombResult): string[] {
  const times = r.victim.map((v) => v.ms);
  const sorted = [...times].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] ?? 0;
  return [
    `(b) decode bombs (10950 x 10950; ${Object.entries(r.bombBytes).map(([n, b]) => `${n} ${b} B`).join(", ")}), ten a request, ${options.bombs.parallel} requests in flight`,
    `    attacker's requests: ${counts(r.attack)}`,
    `    victim's 9 KB photo: ${r.baselineMs.toFixed(0)} ms alone; during the attack ${r.victim.map((v) => `${v.ms.toFixed(0)} ms (${v.status})`).join(", ") || "none"}`,
    `    victim median ${median.toFixed(0)} ms, max ${(sorted.at(-1) ?? 0).toFixed(0)} ms; server RSS ${mb(r.rss.before)} before, peak ${mb(r.rss.peak)}`,
  ];
}

const PARTS = ["sockets", "flood", "bombs"] as const;
const chosen = (process.env.PARTS ?? PARTS.join(",")).split(",");
const started = performance.now();
const lines: string[] = [];
for (const part of PARTS.filter((p) => chosen.includes(p))) {
  // A fresh server for each part, so one part's leftovers (memory, queued decoding) never count in the next.
  const server = await startServer();
  try {
    if (part === "sockets") lines.push(...socketsLines(await nonReadingSockets(server, options.sockets)));
    if (part === "flood") lines.push(...floodLines(await presenceFlood(server, options.flood)));
    if (part === "bombs") lines.push(...bombLines(await decodeBombs(server, options.bombs)));
  } catch (error) {
    lines.push(`(${part}) failed: ${error instanceof Error ? error.message : String(error)}`, server.log().trim().split("\n").slice(-5).join("\n"));
  } finally {
    await server.stop();
  }
}

console.log(
  [
    "",
    `Abuse bench: bun src/server.ts on 127.0.0.1, defaults but ${Object.entries(BENCH_ENV).map(([k, v]) => `${k}=${v}`).join(", ")}`,
    ...lines,
    `total ${((performance.now() - started) / 1000).toFixed(0)} s`,
  ].join("\n"),
);
process.exit(0);
