// Start-up only: read the config, open the database, build the app, listen, and shut down cleanly.
import { buildApp } from "./app.ts";
import { ConfigError, loadConfig, type Config } from "./config.ts";
import { createContext, loadContext } from "./context.ts";
import { openDatabase, type OpenStorage } from "./storage/open.ts";
import { startCheckpointer } from "./wal/checkpointer.ts";
import { startRetention } from "./moderation/retention.ts";
import { startSessionSweep } from "./auth/sessions.ts";
import { watchBans } from "./moderation/watch.ts";
import { MAX_REQUEST_BYTES } from "./uploads/limits.ts";
import { createLogger } from "./observability/log.ts";
import { existsSync } from "node:fs";
import { MANIFEST_FILE } from "./pages/assets/manifest.ts";
import { resetPresence } from "./users/service.ts";
import { drainServer, SHUTDOWN_DEADLINE_MS } from "./shutdown.ts";
import { persistRouletteSessions } from "./roulette/persist.ts";
import { whileLeader } from "./cluster/leader.ts";

let config: Config;
try {
  config = loadConfig();
} catch (error) {
  if (error instanceof ConfigError) {
    // The configured format is unknown when the configuration itself is wrong: plain text.
    createLogger({ level: "error", format: "text" }).error(`Configuration error: ${error.message}`);
    process.exit(1);
  }
  throw error;
}

// Several instances (REDIS_URL) work (roulette, calls, PeerJS, fan-out, presence, limits and the
// caches across instances), but issue 23's fault runs under load and the cluster bench are not
// done (docs/DECISIONS.md "Issue 23"), so start-up still asks for CLUSTER_PREVIEW=1 to run them,
// and says so in the log at every start (docs/OPERATING.md "Several servers").
const unfinished = (c: Config) =>
  c.cluster === null || c.clusterPreview
    ? null
    : 'REDIS_URL (several instances) is still a preview: run one instance, on SQLite or on PostgreSQL (DATABASE_URL), and unset REDIS_URL; to run several set CLUSTER_PREVIEW=1 (not yet checked under load and faults; docs/OPERATING.md "Several servers")';
if (unfinished(config)) {
  createLogger({ level: "error", format: "text" }).error(`Configuration error: ${unfinished(config)}`);
  process.exit(1);
}

let storage: OpenStorage;
try {
  storage = await openDatabase(config);
} catch (error) {
  if (error instanceof ConfigError) {
    createLogger({ level: "error", format: "text" }).error(`Configuration error: ${error.message}`);
    process.exit(1);
  }
  // PostgreSQL unreachable at start-up, or a migration that failed: one line, not a stack trace.
  createLogger({ level: "error", format: "text" }).error(`The database could not be opened: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
const ctx = createContext(config, storage);
await loadContext(ctx);
if (storage.skeletons.clashes > 0) {
  // Old accounts whose names look alike (issue 18): both still sign in; see users/names/backfill.ts.
  ctx.log.warn("usernames that look like an older account's were left without a skeleton", { accounts: storage.skeletons.clashes });
}
// Checkpoints in a worker thread, so that no batch of messages waits for one (src/wal/).
// PostgreSQL checkpoints on its own.
const checkpointer = storage.sqlite
  ? startCheckpointer(storage.sqlite, storage.sqlite.filename, {
      onFailure: (message) => ctx.log.warn("WAL checkpointer failed; SQLite checkpoints on its own again", { error: message }),
    })
  : null;
if (checkpointer) {
  ctx.metrics.registry.collect("webchat_wal_frames", "Frames (4 KB pages) in SQLite's write-ahead log at the checkpointer's last pass; the server starts it over past 65,536.", "gauge", () => checkpointer.frames);
  ctx.metrics.registry.collect("webchat_wal_restarts_total", "Times the server started the write-ahead log over.", "counter", () => checkpointer.restarts);
}
// Nobody has a socket before the server listens: whoever a crash (or kill -9) left online is not.
// With several instances the others still hold theirs: Redis presence lets a dead one's users go.
if (!config.cluster) await resetPresence(storage.db);
// Roulette pairings of the last 10 minutes can still be reported after a restart (saved every second).
const rouletteStore = await persistRouletteSessions(ctx.roulette.sessions, storage.db, ctx.log);
// With REDIS_URL: this instance hears the others (subscribed, presence loaded) before it takes a socket.
if (config.cluster) {
  try {
    await ctx.ports.ready();
  } catch {
    ctx.log.error("Redis at REDIS_URL cannot be reached; not starting", { redis: config.cluster.redisUrl.replace(/\/\/[^@/]*@/, "//***@") });
    process.exit(1);
  }
}
const app = buildApp(ctx).listen({ port: config.port, hostname: config.host, maxRequestBodySize: MAX_REQUEST_BYTES });
// Bans from scripts/moderate.ts reach open sockets within 2 s; closed reports lose their evidence
// after REPORT_RETENTION_DAYS (checked now and hourly).
const stopWatching = await watchBans(ctx);
// With several instances each runs on one of them at a time (a lease, src/cluster/leader.ts).
const LEASE_MS = 30_000;
const leased = (name: string, start: () => () => void) =>
  config.cluster ? whileLeader(ctx.ports.lease(name, LEASE_MS), LEASE_MS, start, (error) => ctx.log.warn("lease check failed", { lease: name, error: String(error) })) : start();
const stopRetention = leased("retention", () => startRetention(ctx));
// Sessions unused for SESSION_TTL_DAYS are refused when used and deleted now and hourly.
const stopSessionSweep = leased("session-sweep", () => startSessionSweep(ctx));
if (config.cluster) {
  ctx.log.warn("CLUSTER_PREVIEW: several instances are not yet checked under load and faults; not for production", {
    instance: ctx.hub.instanceId,
    redis_prefix: config.cluster.prefix,
  });
}
ctx.log.info("Web Chat listening", {
  url: `http://${config.host === "0.0.0.0" ? "localhost" : config.host}:${app.server?.port}`,
  data_dir: config.dataDir,
  uploads_dir: config.uploadsDir,
  storage: storage.engine,
  log_level: config.logLevel,
  metrics: config.metricsToken === null ? "loopback only" : "bearer token",
});
// Pages then go out without their scripts and styles; `npm start` builds first, a bare `bun src/server.ts` may not.
if (!existsSync(MANIFEST_FILE)) ctx.log.warn("no browser build: run `bun scripts/build-client.ts`", { missing: MANIFEST_FILE });

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  // The last resort: whatever still hangs, the process ends (SQLite's WAL makes that safe).
  setTimeout(() => {
    ctx.log.error("shutdown overran its deadline; exiting now", { deadline_ms: SHUTDOWN_DEADLINE_MS });
    process.exit(1);
  }, SHUTDOWN_DEADLINE_MS);
  ctx.log.info("shutting down: closing sockets and the database", { signal });
  stopWatching();
  stopRetention();
  stopSessionSweep();
  ctx.hub.closeAll(1001, "Server shutting down");
  // With Redis: marked dead, so the other instances let go of its users at their next heartbeat.
  await ctx.ports.close();
  const { cutOff, uploadsSettled } = await drainServer(app.server!, () => app.stop(true), () => ctx.uploads.inflight.bytes === 0);
  if (cutOff > 0) ctx.log.info("requests cut off by the shutdown", { requests: cutOff });
  if (!uploadsSettled) ctx.log.warn("uploads still cleaning up at exit; the spool is emptied at the next start");
  // Everyone was online until now; the next start would mark them offline, but without the time.
  if (!config.cluster) await resetPresence(ctx.db, Date.now());
  // After the sockets closed, so the pairings they ended are saved as ended.
  await rouletteStore.stop();
  await checkpointer?.stop();
  await storage.close();
  process.exit(0);
}
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));
