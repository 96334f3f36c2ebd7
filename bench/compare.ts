// The comparison bench (issues 11 and 22): this project, a Node + Socket.IO peer doing the same
// work per message on the same schema, and a raw Bun group-commit floor, each on SQLite
// (better-sqlite3 / bun:sqlite) and again on PostgreSQL ("-pg": postgres.js, the project's
// PostgreSQL schema, a fresh database on the machine's server per start, dropped on stop). Each is
// a child process pinned to core 0 (where taskset exists), loaded by a generator in its own process
// on core 1; the PostgreSQL server is not pinned, and its CPU (all its processes, read in /proc)
// is a row of its own, not in the server's. Systems are
// interleaved over the rounds (project, peer, floor, project-pg, peer-pg, floor-pg, project, ...);
// then idle sockets for each, held sockets and roulette for the project on SQLite, and history
// for the project on each engine. Ends with a Markdown table for the README, both engines side by
// side. Then the cluster run (issue 23, bench/compare/cluster.ts): two instances (CLUSTER_PREVIEW=1)
// behind HAProxy on a fresh PostgreSQL database and a redis-server of the bench's own: messages with
// every pair split across the instances (CPU per message of each instance, Redis, HAProxy and
// PostgreSQL), cross-instance delivery latency at 2,000 messages/s offered, roulette pairings
// across instances, and 30,000 idle sockets held over the two; a small table of its own. Every
// part is bounded in time; children die with it, databases are dropped, the Redis goes.
//   bun bench/compare.ts               (npm run bench; not yet timed with six systems: about twice
//                                      the 8 to 12 minutes the three SQLite ones took)
//   BENCH_QUICK=1 bun bench/compare.ts (one round, smaller counts; about 2 minutes)
//   PARTS=messages,sockets ROUNDS=5 MEASURE_SECONDS=8 WINDOW=4 bun bench/compare.ts
//   PARTS=sockets,held SYSTEMS=project bun bench/compare.ts   (idle sockets, the project alone)
//   SYSTEMS=project-pg,peer-pg,floor-pg bun bench/compare.ts  (PostgreSQL only; history for project-pg)
//   PARTS=cluster bun bench/compare.ts                       (the cluster run alone; about 4 minutes on a quiet machine (not yet timed there),
//                                                             BENCH_QUICK=1 about 1; needs haproxy and redis-server)
//   PARTS=cluster CLUSTER_PARTS=roulette,held ...             (some of its figures: messages, roulette, held)
//   CLUSTER_SOCKETS=1000 CLUSTER_OFFERED_RATE=2000 CLUSTER_ROULETTE_SEEKERS=200 CLUSTER_ROULETTE_OFFERED=5000 CLUSTER_IDLE_SOCKETS=30000
//     (its defaults; ROUNDS, MEASURE_SECONDS, WARMUP_SECONDS, WINDOW, ROULETTE_WAITING and HOLD_SECONDS apply too)
//   BENCH_POSTGRES_URL=postgres://...: the server to make databases on (default the tests' TEST_POSTGRES_URL,
//     else postgres://root@127.0.0.1:5432/postgres; the role must be allowed to CREATE DATABASE)
//   FLOOR_WAL_WORKER=0: the SQLite floor checkpoints as SQLite does by default (inside a commit)
//   BENCH_PROFILE_DIR=/tmp/prof: the project writes a CPU profile (markdown) there on exit
import { cpus, loadavg } from "node:os";
import type { MessageResult } from "./load/messages.ts";
import type { SocketsResult } from "./load/sockets.ts";
import { history, roulette, type HistoryOptions } from "./compare/project-only.ts";
import { SERVER_CORE, SETTLE_MAX_MS } from "./compare/proc.ts";
import { cluster, clusterSkipped, type ClusterFigures, type ClusterPart } from "./compare/cluster.ts";
import { clusterTable, short, table, type Figures, type HeldResult } from "./compare/report.ts";
import { runLoad } from "./compare/run-load.ts";
import { describeServer, dropAllDatabases, postmasterPid } from "./compare/seed-pg.ts";
import { ensurePeerInstalled, kindOf, LABELS, onPostgres, SYSTEMS, start, type SystemName } from "./compare/systems.ts";

const QUICK = ["1", "true", "yes"].includes((process.env.BENCH_QUICK ?? "").toLowerCase());
const num = (name: string, fallback: number) => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a number`);
  return value;
};

const o = {
  rounds: num("ROUNDS", QUICK ? 1 : 3),
  socketCounts: [40, num("MANY_SOCKETS", QUICK ? 200 : 1000)],
  warmupMs: num("WARMUP_SECONDS", QUICK ? 0.5 : 1) * 1000,
  measureMs: num("MEASURE_SECONDS", QUICK ? 2 : 5) * 1000,
  window: num("WINDOW", 1),
  /** Offered messages a second for the paced run over the larger socket count (0: no paced run). */
  offered: num("OFFERED_RATE", 5000),
  idle: num("IDLE_SOCKETS", QUICK ? 1000 : 5000),
  // The open-files limit here is 20,000 per process, hard: the server holds at most about 19,900
  // sockets, so this is the largest round count that fits, spread over two load processes.
  held: num("HELD_SOCKETS", QUICK ? 4000 : 19_500),
  holdMs: num("HOLD_SECONDS", QUICK ? 5 : 10) * 1000,
  openLimitS: 60,
  roulette: { waiting: num("ROULETTE_WAITING", QUICK ? 200 : 1000), seekers: num("ROULETTE_SEEKERS", QUICK ? 20 : 50), warmupMs: 1000, measureMs: QUICK ? 2000 : 5000 },
  cluster: {
    rounds: num("ROUNDS", QUICK ? 1 : 3),
    sockets: num("CLUSTER_SOCKETS", QUICK ? 200 : 1000),
    warmupMs: num("WARMUP_SECONDS", QUICK ? 0.5 : 1) * 1000,
    measureMs: num("MEASURE_SECONDS", QUICK ? 2 : 5) * 1000,
    window: num("WINDOW", 1),
    offered: num("CLUSTER_OFFERED_RATE", 2000),
    roulette: {
      waiting: num("ROULETTE_WAITING", QUICK ? 200 : 1000),
      seekers: num("CLUSTER_ROULETTE_SEEKERS", QUICK ? 50 : 200),
      warmupMs: 1000,
      measureMs: QUICK ? 2000 : 5000,
      offered: num("CLUSTER_ROULETTE_OFFERED", 5000),
    },
    // 15,000 a server process and a load process: under the 20,000 open files each may hold.
    idle: num("CLUSTER_IDLE_SOCKETS", QUICK ? 4000 : 30_000),
    holdMs: num("HOLD_SECONDS", QUICK ? 5 : 10) * 1000,
    openLimitMs: 90_000,
  },
  history: {
    big: num("HISTORY_BIG", QUICK ? 10_000 : 100_000),
    small: 1000,
    filler: num("HISTORY_FILLER", QUICK ? 0 : 899_000),
    // 1,000: a p99 of 300 requests is their third slowest, which one pause decides.
    requests: num("HISTORY_REQUESTS", QUICK ? 100 : 1000),
  } satisfies HistoryOptions,
};
const PARTS = ["messages", "sockets", "held", "roulette", "history", "cluster"] as const;
const chosen = (process.env.PARTS ?? PARTS.join(",")).split(",");
const wanted = (part: (typeof PARTS)[number]) => chosen.includes(part);
const systems = SYSTEMS.filter((name) => (process.env.SYSTEMS ?? SYSTEMS.join(",")).split(",").includes(name));

const fmt = (n: number, digits = 0) => (Number.isFinite(n) ? n.toFixed(digits) : "–");
const errorsOf = (e: Record<string, number>) => (Object.keys(e).length ? ` errors ${JSON.stringify(e)}` : "");
const bunVersion = Bun.version;
const nodeVersion = Bun.spawnSync(["node", "--version"]).stdout.toString().trim();
const machine = `${navigator.hardwareConcurrency} cores (${cpus()[0]?.model ?? "unknown CPU"}), Linux; bun ${bunVersion}, node ${nodeVersion}; servers ${SERVER_CORE.length ? "pinned to core 0 with taskset, load on core 1" : "not pinned (no taskset)"}`;
const postgresLine = systems.some(onPostgres) ? `; ${await describeServer()}` : "";
const loadBefore = loadavg()[0]!;
const begun = performance.now();

console.log(`Comparison bench (${QUICK ? "BENCH_QUICK" : "full"}): ${machine}${postgresLine}; load average ${loadBefore.toFixed(2)} at start`);
if ((wanted("messages") || wanted("sockets")) && systems.some((s) => kindOf(s) === "peer")) ensurePeerInstalled();

/** The PostgreSQL server's CPU counts with the PostgreSQL systems' messages, where it runs here. */
const databasePid = systems.some(onPostgres) ? await postmasterPid() : null;

const figures: Figures = {
  messages: Object.fromEntries(SYSTEMS.map((s) => [s, new Map()])) as Figures["messages"],
  paced: Object.fromEntries(SYSTEMS.map((s) => [s, []])) as unknown as Figures["paced"],
  sockets: {},
  history: {},
};
const messageLine = (round: number, name: SystemName, what: string, r: MessageResult) =>
  `round ${round} ${LABELS[name].padEnd(18)} ${what}: ${fmt(r.deliveredPerSecond).padStart(6)} msgs/s, ack p50 ${fmt(r.ackP50, 1)} ms p99 ${fmt(r.ackP99, 1)} ms, CPU ${fmt(r.cpuPerMessageUs)} us/msg${onPostgres(name) ? ` + PostgreSQL ${fmt(r.databaseCpuPerMessageUs)}` : ""}, RSS ${fmt(r.rssKb / 1024)} MB, opened in ${fmt(r.connectMs / 1000, 1)} s${errorsOf(r.errors)}`;

if (wanted("messages")) {
  const accounts = Math.max(...o.socketCounts);
  for (let round = 1; round <= o.rounds; round++) {
    for (const name of systems) {
      const server = await start(name, accounts);
      try {
        const pairsOf = (sockets: number) => Array.from({ length: sockets / 2 }, (_, i) => ({ sender: server.accounts[2 * i]!, receiver: server.accounts[2 * i + 1]! }));
        const load = { target: server.target, warmupMs: o.warmupMs, measureMs: o.measureMs, window: o.window, serverPid: server.pid, databasePid: onPostgres(name) ? databasePid : null };
        for (const sockets of o.socketCounts) {
          const r = await runLoad<MessageResult>("messages", { ...load, pairs: pairsOf(sockets) });
          figures.messages[name].set(sockets, [...(figures.messages[name].get(sockets) ?? []), r]);
          console.log(messageLine(round, name, `${String(sockets).padStart(5)} sockets`, r));
        }
        if (o.offered > 0) {
          const r = await runLoad<MessageResult>("messages", { ...load, pairs: pairsOf(accounts), ratePerSecond: o.offered });
          figures.paced[name].push(r);
          console.log(messageLine(round, name, `${accounts} sockets, ${o.offered}/s offered`, r));
        }
      } finally {
        await server.stop();
      }
    }
  }
}

/** A sockets load's bound: the opening, a quiet wait of at most 12 s, two settled RSS readings, the hold. */
const socketsRunMs = (holdMs: number) => o.openLimitS * 1000 + 12_000 + 2 * SETTLE_MAX_MS + holdMs + 30_000;

if (wanted("sockets")) {
  for (const name of systems) {
    const server = await start(name, o.idle);
    try {
      await Bun.sleep(1000);
      const r = await runLoad<SocketsResult>("sockets", { target: server.target, tokens: server.accounts.map((a) => a.token), limitMs: o.openLimitS * 1000, serverPid: server.pid }, socketsRunMs(0));
      figures.sockets[name] = r;
      console.log(
        `${LABELS[name].padEnd(18)} ${r.opened} of ${r.asked} idle signed-in sockets opened in ${fmt(r.openMs / 1000, 1)} s (${r.failed} refused or not open by the limit); RSS ${fmt(r.rssBeforeKb / 1024)} → ${fmt(r.rssAfterKb / 1024)} MB, ${fmt(r.kbPerSocket, 1)} KB per socket`,
      );
    } finally {
      await server.stop();
    }
  }
}

if (wanted("held")) {
  const server = await start("project", o.held);
  try {
    await Bun.sleep(1000);
    const tokens = server.accounts.map((a) => a.token);
    const half = Math.ceil(tokens.length / 2);
    const spec = (part: string[]) => ({ target: server.target, tokens: part, limitMs: o.openLimitS * 1000, serverPid: server.pid, holdMs: o.holdMs });
    const parts = await Promise.all([runLoad<SocketsResult>("sockets", spec(tokens.slice(0, half)), socketsRunMs(o.holdMs)), runLoad<SocketsResult>("sockets", spec(tokens.slice(half)), socketsRunMs(o.holdMs))]);
    const r: HeldResult = {
      asked: tokens.length,
      opened: parts.reduce((n, p) => n + p.opened, 0),
      stillOpen: parts.reduce((n, p) => n + (p.stillOpen ?? 0), 0),
      holdMs: o.holdMs,
      rssBeforeKb: Math.min(...parts.map((p) => p.rssBeforeKb)),
      rssHeldKb: Math.max(...parts.map((p) => p.rssHeldKb ?? 0)),
      openMs: Math.max(...parts.map((p) => p.openMs)),
    };
    figures.held = r;
    console.log(
      `${LABELS.project.padEnd(18)} idle sockets held: ${r.opened} of ${r.asked} opened in ${fmt(r.openMs / 1000, 1)} s from 2 load processes, ${r.stillOpen} still open after ${o.holdMs / 1000} s; server RSS ${fmt(r.rssHeldKb / 1024)} MB (open-files limit 20,000 per process, hard)`,
    );
  } finally {
    await server.stop();
  }
}

if (wanted("roulette")) {
  const r = await roulette(o.roulette);
  figures.roulette = r;
  console.log(`roulette: ${r.waiting} waiting, ${r.seekers} seekers: ${fmt(r.pairsPerSecond)} pairings/s, join-to-pair p50 ${fmt(r.p50, 1)} ms p99 ${fmt(r.p99, 1)} ms; ${r.timeouts} waited over 5 s${errorsOf(r.errors)}`);
}

if (wanted("history")) {
  for (const name of (["project", "project-pg"] as const).filter((s) => systems.includes(s))) {
    const { result, seedSeconds } = await history(o.history, name);
    figures.history[name] = { result, options: o.history };
    const h = o.history;
    console.log(`history, ${LABELS[name]}: seeded ${short(h.big)} + ${short(h.small)} + ${short(h.filler)} messages in ${fmt(seedSeconds, 1)} s; ${h.requests} requests each`);
    for (const [label, r] of Object.entries(result)) console.log(`  ${label.padEnd(16)} status ${r.status}, p50 ${fmt(r.p50, 2)} ms, p99 ${fmt(r.p99, 2)} ms`);
  }
}

let clusterFigures: ClusterFigures | null = null;
if (wanted("cluster")) {
  const skipped = clusterSkipped();
  // CLUSTER_PARTS=messages,roulette,held (default all three): the figures of the cluster run to make.
  const clusterParts = (process.env.CLUSTER_PARTS ?? "messages,roulette,held").split(",") as ClusterPart[];
  if (skipped) console.log(`cluster run skipped: ${skipped}`);
  else {
    // A failed cluster run (PostgreSQL or Redis away, an instance that would not start) still
    // leaves the single-instance figures their table; its clean-up has run by now.
    try {
      clusterFigures = await cluster(o.cluster, clusterParts, (line) => console.log(line));
    } catch (error) {
      console.log(`cluster run failed: ${(error as Error).message}`);
      process.exitCode = 1;
    }
  }
}

const date = new Date().toISOString().slice(0, 10);
console.log(
  [
    "",
    `Measured ${date} on ${machine}${postgresLine}; ${o.rounds} round(s) interleaved, ${o.measureMs / 1000} s measured per run after ${o.warmupMs / 1000} s warm-up, ${o.window} message(s) in flight per sender; medians over rounds; the floor checkpoints ${process.env.FLOOR_WAL_WORKER === "0" ? "inside its commits (SQLite's default)" : "in a worker thread, as the project does"}. Load average ${loadBefore.toFixed(2)} at start, ${loadavg()[0]!.toFixed(2)} at end; ${fmt((performance.now() - begun) / 1000)} s in all.`,
    "",
    ...(PARTS.some((part) => part !== "cluster" && wanted(part)) ? [table(figures, systems, { socketCounts: o.socketCounts, offered: o.offered, idle: o.idle, openLimitS: o.openLimitS })] : []),
    ...(clusterFigures
      ? [
          "",
          `Cluster run: 2 instances (CLUSTER_PREVIEW=1) + HAProxy (deploy/haproxy.cfg) + a redis-server of the bench's own + a fresh PostgreSQL database; nothing pinned but the load (core 1); ${clusterFigures.options.rounds} round(s) of messages, medians. Load average ${clusterFigures.loadStart.toFixed(2)} at its start, ${clusterFigures.loadEnd.toFixed(2)} at its end.`,
          "",
          clusterTable(clusterFigures),
        ]
      : []),
  ].join("\n"),
);
await dropAllDatabases();
process.exit(process.exitCode ?? 0);
