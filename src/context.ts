// Everything a request or socket handler may use, built once at start-up (and once per test).
import type { Database } from "bun:sqlite";
import type { Config } from "./config.ts";
import type { Db, Storage } from "./db.ts";
import { TokenBuckets, WindowCounter } from "./http/rate-limit.ts";
import { LoginFailures } from "./auth/login-limit.ts";
import { MessageClock } from "./messages/service.ts";
import { Hub } from "./realtime/hub.ts";
import { CallRegistry } from "./calls/registry.ts";
import { RouletteQueue } from "./roulette/queue.ts";
import { BlockRegistry } from "./blocks/registry.ts";
import { ContactRegistry } from "./privacy/contacts.ts";
import { createUploadGate, type UploadGate } from "./uploads/gate.ts";
import { createLogger, type Logger } from "./observability/log.ts";
import { createMetrics, type AppMetrics } from "./observability/metrics.ts";
import { PushService } from "./push/service.ts";
import type { PushTransport } from "./push/transport.ts";
import { refusal } from "./privacy/gate.ts";

export interface AppContext {
  config: Config;
  db: Db;
  sqlite: Database;
  hub: Hub;
  clock: MessageClock;
  calls: CallRegistry;
  roulette: RouletteQueue;
  blocks: BlockRegistry;
  contacts: ContactRegistry;
  /** Upload quota, bytes in flight, the decode queue and the disk (src/uploads/gate.ts). */
  uploads: UploadGate;
  /** Counters and gauges for /metrics (src/observability/metrics.ts). */
  metrics: AppMetrics;
  /** One-line logs in LOG_FORMAT at LOG_LEVEL. */
  log: Logger;
  /** Web Push to people with no tab open (src/push/). */
  push: PushService;
  limits: {
    loginFailures: LoginFailures;
    signups: WindowCounter;
    guests: WindowCounter;
    uploads: WindowCounter;
    socketEvents: TokenBuckets;
    reports: WindowCounter;
  };
}

/** `pushTransport`: where pushes go instead of the network (tests). */
export function createContext(config: Config, storage: Storage, pushTransport?: PushTransport): AppContext {
  const hub = new Hub(config.presenceGraceMs, undefined, config.presenceBatch);
  const roulette = new RouletteQueue(Date.now, config.rouletteWaiting);
  const blocks = new BlockRegistry(storage.db);
  const contacts = new ContactRegistry(storage.db);
  const log = createLogger({ level: config.logLevel, format: config.logFormat });
  const push = new PushService(storage.db, config.push, {
    isConnected: (userId) => hub.isConnected(userId),
    refused: (senderId, receiverId) => refusal({ blocks, contacts }, senderId, receiverId) !== null,
  }, log, pushTransport);
  const calls = new CallRegistry();
  // A call that rang by push closes its notification however it stops ringing.
  calls.onRingEnd((call) => {
    if (call.pushed) push.ringEnded(call.callerId, call.receiverId, Math.ceil(config.callRingMs / 1000));
  });
  return {
    config,
    db: storage.db,
    sqlite: storage.sqlite,
    hub,
    clock: new MessageClock(storage.db),
    calls,
    roulette,
    blocks,
    contacts,
    uploads: createUploadGate(config, storage.db),
    metrics: createMetrics({ hub, roulette }),
    log,
    push,
    limits: {
      loginFailures: new LoginFailures({ perAddress: config.loginFailLimit, perAccount: config.loginFailAccountLimit, windowMs: config.loginFailWindowMs }),
      signups: new WindowCounter(config.signupPerHour, 60 * 60_000),
      guests: new WindowCounter(config.signupPerHour, 60 * 60_000),
      uploads: new WindowCounter(config.uploadsPerMinute, 60_000),
      socketEvents: new TokenBuckets(config.socketRate.perSecond, config.socketRate.burst),
      reports: new WindowCounter(config.reportsPerHour, 60 * 60_000),
    },
  };
}
