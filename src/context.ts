// Everything a request or socket handler may use, built once at start-up (and once per test).
import type { Database } from "bun:sqlite";
import type { Config } from "./config.ts";
import type { OpenStorage } from "./storage/open.ts";
import type { Db } from "./storage/index.ts";
import { HOUR_MS, TokenBuckets } from "./http/rate-limit.ts";
import { LoginFailures } from "./auth/login-limit.ts";
import { MessageClock } from "./messages/service.ts";
import { Hub } from "./realtime/hub.ts";
import { createCalls, type CallsPort } from "./calls/index.ts";
import { RouletteQueue } from "./roulette/queue.ts";
import { ClusterRoulette } from "./roulette/cluster.ts";
import { BlockRegistry } from "./blocks/registry.ts";
import { loadStrangerBlocks, shareKeptApart } from "./blocks/strangers.ts";
import { loadReportedPairs } from "./reports/service.ts";
import { loadShownPresence } from "./realtime/presence-shared.ts";
import { ContactRegistry } from "./privacy/contacts.ts";
import { shareUserCache } from "./users/cache.ts";
import { createUploadGate, type UploadGate } from "./uploads/gate.ts";
import { createLogger, type Logger } from "./observability/log.ts";
import { createMetrics, type AppMetrics } from "./observability/metrics.ts";
import { createPorts, type Ports } from "./cluster/index.ts";
import type { WindowLimit } from "./cluster/ports.ts";
import { PushService } from "./push/service.ts";
import type { PushTransport } from "./push/transport.ts";
import { refusal } from "./privacy/gate.ts";
import { localPeerEngine, type PeerEngineFactory } from "./peerjs/engine.ts";
import { redisPeerEngine } from "./cluster/peerjs-redis.ts";

export interface AppContext {
  config: Config;
  db: Db;
  /** SQLite's own connection (the checkpointer, tests); null on PostgreSQL. */
  sqlite: Database | null;
  hub: Hub;
  clock: MessageClock;
  /** One call per user, over every instance (src/calls/port.ts). */
  calls: CallsPort;
  roulette: RouletteQueue;
  blocks: BlockRegistry;
  contacts: ContactRegistry;
  /** Upload quota, bytes in flight, the decode queue and the disk (src/uploads/gate.ts). */
  uploads: UploadGate;
  /** Counters and gauges for /metrics (src/observability/metrics.ts). */
  metrics: AppMetrics;
  /** One-line logs in LOG_FORMAT at LOG_LEVEL. */
  log: Logger;
  /** Fan-out, presence, limits, the bus and leases: one process, or several over Redis (src/cluster/). */
  ports: Ports;
  /** Web Push to people with no tab open (src/push/). */
  push: PushService;
  /** PeerJS signalling in one process, or over Redis with the other instances (src/peerjs/engine.ts). */
  peerEngine: PeerEngineFactory;
  limits: {
    loginFailures: LoginFailures;
    /** Windows over every instance (the limits port): an answer of 0 means taken, else seconds to wait. */
    signups: WindowLimit;
    guests: WindowLimit;
    uploads: WindowLimit;
    /** Per instance: a frame's budget is checked on the socket's own instance, with no round trip. */
    socketEvents: TokenBuckets;
    reports: WindowLimit;
  };
}

/**
 * What start-up reads into memory before the app takes a request or a socket: who blocked whom
 * (and the accounts each browser carries), and the pairs roulette keeps apart (blocked strangers,
 * reports). Awaited once after createContext (server.ts, scripts, tests/support/app.ts).
 */
export async function loadContext(ctx: AppContext): Promise<void> {
  await ctx.clock.load();
  await ctx.contacts.load();
  await ctx.uploads.ledger.load();
  await ctx.blocks.load();
  await loadStrangerBlocks(ctx);
  await loadReportedPairs(ctx);
  await loadShownPresence(ctx);
}

/** Given in tests: `ports` (two instances in one process), `pushTransport` (where pushes go instead of the network). */
export interface ContextOptions {
  ports?: Ports;
  pushTransport?: PushTransport;
}

export function createContext(config: Config, storage: Pick<OpenStorage, "db" | "sqlite">, options: ContextOptions = {}): AppContext {
  const log = createLogger({ level: config.logLevel, format: config.logFormat });
  const chosen = options.ports ?? createPorts(config, log);
  const hub = new Hub(config.presenceGraceMs, undefined, config.presenceBatch, chosen);
  // Several instances: one matchmaker behind a lease, pairs relayed between instances (roulette/cluster.ts).
  const roulette = chosen.kind === "local"
    ? new RouletteQueue(Date.now, config.rouletteWaiting, config.rouletteInterestWaitMs)
    : new ClusterRoulette(chosen, Date.now, config.rouletteWaiting, config.rouletteInterestWaitMs);
  const blocks = new BlockRegistry(storage.db);
  const contacts = new ContactRegistry(storage.db);
  // Several instances: a new conversation or privacy setting reaches every instance's copy.
  // A block or carried account made through any instance, too (and the request waits until all have it).
  if (chosen.kind !== "local") {
    contacts.share(chosen.bus);
    blocks.share(chosen.bus);
    shareUserCache(storage.db, chosen.bus);
    // Pairs roulette keeps apart (reports, blocked strangers), heard from every instance.
    const kept = { db: storage.db, roulette, ports: chosen };
    shareKeptApart(kept, () => loadReportedPairs(kept));
  }
  const push = new PushService(storage.db, config.push, {
    isConnected: (userId) => hub.isConnected(userId),
    connectedElsewhere: (userId) => chosen.fanOut.heldElsewhere(userId),
    refused: (senderId, receiverId) => refusal({ blocks, contacts }, senderId, receiverId) !== null,
  }, log, options.pushTransport);
  const calls = createCalls(chosen, hub, (userId) => roulette.socketOf(userId) !== undefined);
  // A call that rang by push closes its notification however it stops ringing.
  calls.onRingEnd((call) => {
    if (call.pushed) push.ringEnded(call.callerId, call.receiverId, Math.ceil(config.callRingMs / 1000));
  });
  const uploads = createUploadGate(config, storage.db);
  // Several instances: files stored through the others count too (the ledger reads the database).
  if (chosen.kind !== "local") uploads.ledger.everywhere = true;
  const ctx: AppContext = {
    config,
    db: storage.db,
    sqlite: storage.sqlite,
    hub,
    clock: new MessageClock(storage.db),
    calls,
    roulette,
    blocks,
    contacts,
    uploads,
    metrics: createMetrics({ hub, roulette }),
    log,
    ports: chosen,
    push,
    peerEngine: chosen.redis ? redisPeerEngine(chosen.redis) : localPeerEngine,
    limits: {
      loginFailures: new LoginFailures(
        { perAddress: config.loginFailLimit, perAccount: config.loginFailAccountLimit, windowMs: config.loginFailWindowMs },
        chosen.limits.sliding("login-failures", config.loginFailWindowMs),
      ),
      signups: chosen.limits.window("signups", config.signupPerHour, HOUR_MS),
      guests: chosen.limits.window("guests", config.signupPerHour, HOUR_MS),
      uploads: chosen.limits.window("uploads", config.uploadsPerMinute, 60_000),
      socketEvents: new TokenBuckets(config.socketRate.perSecond, config.socketRate.burst),
      reports: chosen.limits.window("reports", config.reportsPerHour, HOUR_MS),
    },
  };
  if (roulette instanceof ClusterRoulette) roulette.bind(ctx);
  return ctx;
}
