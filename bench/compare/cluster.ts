// The cluster run (issue 23): two instances of the project (CLUSTER_PREVIEW=1, `bun src/server.ts`)
// behind Debian's HAProxy running deploy/haproxy.cfg, started by the tests' cluster harness
// (tests/support/cluster-harness.ts) on a fresh PostgreSQL database and a redis-server of the
// bench's own (a free port, nothing on disk: its CPU is the Redis hop's alone, whatever else uses
// the machine's Redis), with a shared UPLOADS_DIR. Accounts are seeded straight into the database
// before start. Measured, in this order, on one cluster:
//   - messages: every pair split across the instances (even pairs send on app1 and receive on
//     app2, odd pairs the other way round), each socket through HAProxy steered to its instance by
//     the harness's header; CPU per message of both instances, redis-server, HAProxy and the
//     PostgreSQL server (all its processes), read in /proc; then the same sockets paced at the
//     offered rate (2,000 messages/s), with delivery latency (send to the receiver's frame);
//   - roulette: the waiting women on app1, the seekers on app2 (through HAProxy, steered), so
//     every pairing is across instances: first every seeker searching again at once (the most
//     pairings a second), then searches paced at the offered rate (5,000 a second), with their
//     latency from when each fell due;
//   - idle sockets held: half the accounts on each instance, opened straight to the instance (not
//     through HAProxy: one HAProxy process would need two descriptors a socket, and a process here
//     may open 20,000), by two load processes, one per instance; KB per socket from each
//     instance's RSS.
// Servers, HAProxy, Redis and PostgreSQL are not pinned; the load processes run on core 1 as
// elsewhere. Everything is stopped and removed at the end, on failure and on an interrupt.
import { ping } from "../../scripts/machine/redis.ts";
import { HAPROXY, startCluster, type Cluster } from "../../tests/support/cluster-harness.ts";
import type { Target } from "../load/clients.ts";
import type { MessageResult } from "../load/messages.ts";
import type { RouletteResult } from "../load/roulette.ts";
import type { SocketsResult } from "../load/sockets.ts";
import { freePort, removeFolder, SETTLE_MAX_MS, spawnChild, tempFolder } from "./proc.ts";
import { runLoad } from "./run-load.ts";
import { freshDatabase, postmasterPid, seedUsersPg } from "./seed-pg.ts";
import { PROJECT_ENV } from "./systems.ts";

export interface ClusterOptions {
  rounds: number;
  /** Sockets of the message runs (half senders, half receivers). */
  sockets: number;
  warmupMs: number;
  measureMs: number;
  window: number;
  /** Offered messages a second of the paced run (the delivery-latency figure). */
  offered: number;
  /** `offered`: searches a second of the paced run (the latency figure). */
  roulette: { waiting: number; seekers: number; warmupMs: number; measureMs: number; offered: number };
  /** Idle signed-in sockets asked across the two instances (half on each). */
  idle: number;
  holdMs: number;
  openLimitMs: number;
}

export interface ClusterFigures {
  options: ClusterOptions;
  messages: MessageResult[];
  paced: MessageResult[];
  /** Closed loop: the most pairings a second. */
  roulette?: RouletteResult;
  /** Paced at `roulette.offered` searches a second: the latency at that rate. */
  roulettePaced?: RouletteResult;
  /** One per instance: app1's, then app2's. */
  idle?: SocketsResult[];
  loadStart: number;
  loadEnd: number;
}

export type ClusterPart = "messages" | "roulette" | "held";

const SECRET = "compare-bench-secret-compare-bench-secret!";

/** A redis-server of the bench's own, killed with the bench's other children. */
async function ownRedis(): Promise<{ url: string; pid: number; stop(): Promise<void> }> {
  const port = freePort();
  const dir = tempFolder("webchat-compare-redis-");
  const child = spawnChild(["redis-server", "--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir], {});
  const url = `redis://127.0.0.1:${port}`;
  const stop = async () => {
    await child.stop();
    removeFolder(dir);
  };
  const deadline = Date.now() + 10_000;
  while (!(await ping(url, 500))) {
    if (child.proc.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`redis-server did not start on ${port}: ${child.log().trim()}`);
    }
    await Bun.sleep(50);
  }
  return { url, pid: child.proc.pid, stop };
}

/** Why the cluster run cannot happen here, or null. */
export function clusterSkipped(): string | null {
  if (!HAPROXY) return "HAProxy is missing (apt-get install -y haproxy)";
  if (!Bun.which("redis-server")) return "redis-server is missing (apt-get install -y redis-server)";
  return null;
}

export async function cluster(o: ClusterOptions, parts: ClusterPart[], log: (line: string) => void): Promise<ClusterFigures> {
  const loadStart = (await import("node:os")).loadavg()[0]!;
  const redis = await ownRedis();
  let database: Awaited<ReturnType<typeof freshDatabase>> | null = null;
  let running: Cluster | null = null;
  try {
    database = await freshDatabase(true);
    const accounts = await seedUsersPg(database.url, SECRET, Math.max(o.sockets, o.idle, 2 * Math.max(o.roulette.waiting, o.roulette.seekers)));
    running = await startCluster({
      databaseUrl: database.url,
      redisUrl: redis.url,
      // The bench's limits opened wide; presence batching at its default, as operated.
      env: {
        ...PROJECT_ENV,
        JWT_SECRET: SECRET,
        PRESENCE_BATCH_SECONDS: "",
        // BENCH_PROFILE_DIR: each instance writes a CPU profile (markdown) there when it stops.
        ...(process.env.BENCH_PROFILE_DIR ? { BUN_OPTIONS: `--cpu-prof-md --cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}` } : {}),
      },
      withinMs: 90_000,
    });
    const [app1, app2] = running.instances as [Cluster["instances"][number], Cluster["instances"][number]];
    const via = (name: string): Target => ({ protocol: "raw", base: running!.url, headers: running!.steer(name) });
    const figures: ClusterFigures = { options: o, messages: [], paced: [], loadStart, loadEnd: NaN };

    if (parts.includes("messages")) {
      const databasePid = await postmasterPid();
      const pairs = Array.from({ length: Math.floor(o.sockets / 2) }, (_, i) => ({ sender: accounts[2 * i]!, receiver: accounts[2 * i + 1]! }));
      const load = {
        target: via(app1.name),
        across: via(app2.name),
        pairs,
        warmupMs: o.warmupMs,
        measureMs: o.measureMs,
        window: o.window,
        serverPid: app1.proc.pid,
        databasePid,
        extraPids: { app2: app2.proc.pid, redis: redis.pid, haproxy: running.haproxyPid },
      };
      for (let round = 1; round <= o.rounds; round++) {
        const r = await runLoad<MessageResult>("messages", load);
        figures.messages.push(r);
        log(`cluster round ${round}, ${o.sockets} sockets split across 2 instances: ${describe(r)}`);
        const p = await runLoad<MessageResult>("messages", { ...load, ratePerSecond: o.offered });
        figures.paced.push(p);
        log(`cluster round ${round}, ${o.offered}/s offered: ${describe(p)}`);
      }
    }

    if (parts.includes("roulette")) {
      const women = accounts.filter((a) => a.gender === "female").slice(0, o.roulette.waiting);
      const men = accounts.filter((a) => a.gender === "male").slice(0, o.roulette.seekers);
      const spec = {
        target: via(app1.name),
        seekersTarget: via(app2.name),
        waiting: women.map((a) => a.token),
        seekers: men.map((a) => a.token),
        warmupMs: o.roulette.warmupMs,
        measureMs: o.roulette.measureMs,
      };
      const describe = (r: RouletteResult) =>
        `${r.waiting} waiting on app1, ${r.seekers} seekers on app2${r.offeredPerSecond ? `, ${r.offeredPerSecond} searches/s offered` : ""}: ${f(r.pairsPerSecond)} pairings/s, join-to-pair p50 ${f(r.p50, 1)} ms p99 ${f(r.p99, 1)} ms; ${r.timeouts} waited over 5 s${Object.keys(r.errors).length ? ` errors ${JSON.stringify(r.errors)}` : ""}`;
      figures.roulette = await runLoad<RouletteResult>("roulette", spec);
      log(`cluster roulette, ${describe(figures.roulette)}`);
      figures.roulettePaced = await runLoad<RouletteResult>("roulette", { ...spec, offeredPerSecond: o.roulette.offered });
      log(`cluster roulette paced, ${describe(figures.roulettePaced)}`);
    }

    if (parts.includes("held")) {
      const tokens = accounts.slice(0, o.idle).map((a) => a.token);
      const half = Math.ceil(tokens.length / 2);
      const spec = (instance: typeof app1, part: string[]) => ({ target: { protocol: "raw", base: instance.url } satisfies Target, tokens: part, limitMs: o.openLimitMs, serverPid: instance.proc.pid, holdMs: o.holdMs, rehearse: true });
      // Two openings, each bounded by openLimitMs, three quiet waits of at most 12 s, three settled
      // readings, and the hold.
      const limitMs = 2 * o.openLimitMs + o.holdMs + 60_000 + 3 * SETTLE_MAX_MS;
      const idle = await Promise.all([runLoad<SocketsResult>("sockets", spec(app1, tokens.slice(0, half)), limitMs), runLoad<SocketsResult>("sockets", spec(app2, tokens.slice(half)), limitMs)]);
      figures.idle = idle;
      for (const [i, r] of idle.entries()) {
        log(
          `cluster idle sockets, app${i + 1}: ${r.opened} of ${r.asked} opened in ${(r.openMs / 1000).toFixed(1)} s, ${r.stillOpen} still open after ${o.holdMs / 1000} s; RSS ${f(r.rssBeforeKb / 1024)} → ${f(r.rssAfterKb / 1024)} MB, ${f(r.kbPerSocket, 1)} KB per socket (first opening, each user's first sign-in: ${f(r.coldKbPerSocket ?? NaN, 1)} KB, in ${f((r.coldOpenMs ?? NaN) / 1000, 1)} s)`,
        );
      }
    }
    figures.loadEnd = (await import("node:os")).loadavg()[0]!;
    return figures;
  } finally {
    // The harness stops the instances and HAProxy and deletes the prefix's keys; then the database and Redis go.
    const problems: string[] = [];
    await running?.stop().catch((error: Error) => problems.push(error.message));
    await database?.drop().catch((error: Error) => problems.push(`database: ${error.message}`));
    await redis.stop();
    if (problems.length > 0) log(`cluster clean-up: ${problems.join("; ")}`);
  }
}

/** JSON turns NaN into null: both print as a dash. */
const f = (n: number | null, digits = 0) => (typeof n === "number" && Number.isFinite(n) ? n.toFixed(digits) : "–");

function describe(r: MessageResult): string {
  const extra = Object.entries(r.extraCpuPerMessageUs)
    .map(([label, us]) => `${label} ${f(us)}`)
    .join(", ");
  return `${f(r.deliveredPerSecond)} msgs/s, ack p50 ${f(r.ackP50, 1)} ms p99 ${f(r.ackP99, 1)} ms, delivery p50 ${f(r.deliveryP50, 1)} ms p99 ${f(r.deliveryP99, 1)} ms; CPU us/msg app1 ${f(r.cpuPerMessageUs)}, ${extra}, PostgreSQL ${f(r.databaseCpuPerMessageUs)}${Object.keys(r.errors).length ? `; errors ${JSON.stringify(r.errors)}` : ""}`;
}
