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
  limits: {
    loginFailures: LoginFailures;
    signups: WindowCounter;
    guests: WindowCounter;
    uploads: WindowCounter;
    socketEvents: TokenBuckets;
    reports: WindowCounter;
  };
}

export function createContext(config: Config, storage: Storage): AppContext {
  const hub = new Hub(config.presenceGraceMs, undefined, config.presenceBatch);
  const roulette = new RouletteQueue(Date.now, config.rouletteWaiting, config.rouletteInterestWaitMs);
  return {
    config,
    db: storage.db,
    sqlite: storage.sqlite,
    hub,
    clock: new MessageClock(storage.db),
    calls: new CallRegistry(),
    roulette,
    blocks: new BlockRegistry(storage.db),
    contacts: new ContactRegistry(storage.db),
    uploads: createUploadGate(config, storage.db),
    metrics: createMetrics({ hub, roulette }),
    log: createLogger({ level: config.logLevel, format: config.logFormat }),
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
