// Several real servers behind HAProxy, for tests of the cluster as an operator runs it
// (docs/OPERATING.md "Several servers"): two or three `bun src/server.ts` processes with
// CLUSTER_PREVIEW=1 on ONE PostgreSQL database (a copy of the PostgreSQL pass's migrated one), ONE
// Redis key prefix and ONE UPLOADS_DIR, and Debian's HAProxy in front on a free port, running
// deploy/haproxy.cfg itself with only its bind address, admin socket and server lines replaced
// (and its maxconn lowered on the command line, to what a test process's file limit allows).
//
//   const cluster = await startCluster();              // every instance reachable through HAProxy
//   await fetch(`${cluster.url}/api/...`, { headers: cluster.steer("app2") });
//   const socket = await cluster.connect(token, "app1"); // a /ws socket held by app1
//   await cluster.stop();                               // in afterAll: processes, database, keys, files
//
// Round robin sends consecutive requests and sockets to the instances in turn; a test that must
// know which instance answers steers with a header (`steer`), which only the harness's copy of the
// configuration obeys. Everything started is stopped by `stop` (bounded in time), by a failed
// start, and by the test process's exit if a test never got to `stop`. The bench
// (bench/compare/cluster.ts) starts its cluster here too, on a database and a redis-server of its own.
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { dropPrefix } from "../../src/cluster/redis.ts";
import { ping, REDIS_TEST_URL, stopLine } from "../../scripts/machine/redis.ts";
import { REQUIREMENTS } from "../../scripts/machine/requirements.ts";
import { newPrefix } from "./cluster.ts";
import { cloneDatabase, dropDatabase, templateUrl } from "./pg-clone.ts";
import { PASSWORD } from "./password.ts";
import { freePort } from "./ports.ts";
import { connect, type TestSocket } from "./ws.ts";

const root = join(import.meta.dir, "..", "..");
/** The documented configuration, which the harness runs. */
export const HAPROXY_CONFIG = join(root, "deploy", "haproxy.cfg");
const haproxyNeed = REQUIREMENTS.find((r) => r.name === "HAProxy")!;
export const HAPROXY = haproxyNeed.paths.every((path) => existsSync(path)) ? haproxyNeed.paths[0]! : null;
/** The header the harness's HAProxy obeys to pick an instance, and the one it answers with. */
export const STEER_HEADER = "x-webchat-instance";
export const SERVED_BY_HEADER = "x-served-by";
const JWT_SECRET = "cluster-harness-secret-cluster-harness-secret";

export interface ClusterInstance {
  /** app1, app2, ...: the server's name in HAProxy. */
  name: string;
  port: number;
  url: string;
  wsUrl: string;
  dataDir: string;
  /** Its standard output and error (LOG_LEVEL warn unless TEST_SERVER_LOG_LEVEL says otherwise). */
  logFile: string;
  proc: Bun.Subprocess;
  running(): boolean;
  /** SIGKILL, as a crash: nothing of its shutdown runs. */
  kill(): Promise<void>;
  /** SIGTERM, as a rolling restart: it closes its sockets and marks itself dead in Redis. */
  stop(withinMs?: number): Promise<number>;
  /** Starts it again on the same port and folder; resolves once it answers /healthz. */
  start(): Promise<void>;
}

/** A request through the balancer: to `instance` when given (while it is up), in `token`'s session. */
export interface ClusterRequest {
  instance?: string;
  token?: string;
  /** Sent as JSON. */
  json?: unknown;
  body?: BodyInit;
  headers?: Record<string, string>;
  /** Aborts a request that takes longer (none unless given). */
  timeoutMs?: number;
}

export interface ClusterAnswer {
  status: number;
  /** Parsed JSON, or the text when it is not JSON. */
  body: any;
  text: string;
  retryAfter: string | null;
  /** The instance that answered (HAProxy's header). */
  servedBy: string | null;
}

export interface Cluster {
  /** HAProxy's address. */
  url: string;
  wsUrl: string;
  instances: ClusterInstance[];
  instance(name: string): ClusterInstance;
  databaseUrl: string;
  redisPrefix: string;
  /** The balancer's process, for the bench's CPU figures. */
  haproxyPid: number;
  uploadsDir: string;
  /** The headers that make HAProxy send a request or socket to `name` (while it is up). */
  steer(name: string): Record<string, string>;
  /** A /ws socket through HAProxy, held by `name` when given, else by the next in turn. */
  connect(token: string, name?: string): Promise<TestSocket>;
  /** An HTTP request through HAProxy. */
  call(method: string, path: string, options?: ClusterRequest): Promise<ClusterAnswer>;
  /** A new account (a 30-year-old woman in `country`, DE unless given) signed up through `instance`. */
  register(instance: string, country?: string): Promise<{ username: string; token: string; user: { id: number }; servedBy: string | null }>;
  /** Stops everything and removes the database, the Redis keys and the folders; bounded in time. */
  stop(): Promise<void>;
}

export interface ClusterOptions {
  /** 2 (default) or 3 instances. */
  instances?: number;
  /** More environment for every instance (limits, grace...). */
  env?: Record<string, string>;
  /** The whole start-up, instances and balancer; past it everything started is stopped again. */
  withinMs?: number;
  /**
   * A Redis of the test's own (a throwaway redis-server it may stop) instead of the machine's;
   * the prefix is still fresh and still deleted by `stop` (when that Redis answers).
   */
  redisUrl?: string;
  /**
   * A database of the test's own (its own PostgreSQL server, which it may stop), empty or not:
   * the instances migrate it at start-up. `stop` leaves it to the test instead of dropping it.
   */
  databaseUrl?: string;
}

/** Why this machine or run cannot start a cluster, in one line; null when it can. */
export async function clusterUnavailable(options: Pick<ClusterOptions, "databaseUrl" | "redisUrl"> = {}): Promise<string | null> {
  const redisUrl = options.redisUrl ?? REDIS_TEST_URL;
  if (!templateUrl && !options.databaseUrl) return "the cluster harness runs on the PostgreSQL pass only (DATABASE_URL, scripts/machine/pg-run.ts)";
  if (!HAPROXY) return `HAProxy is missing (${haproxyNeed.paths.join(", ")}): install it with apt-get install -y ${haproxyNeed.debian.join(" ")}`;
  if (!(await ping(redisUrl))) return stopLine(redisUrl);
  return null;
}

/** deploy/haproxy.cfg with this run's address, admin socket and servers, plus the steering rules. */
export function harnessConfig(documented: string, listenPort: number, adminSocket: string, servers: { name: string; port: number }[]): string {
  let binds = 0;
  let sockets = 0;
  let serverLines = 0;
  const out: string[] = [];
  for (const line of documented.split("\n")) {
    if (/^\s+bind\s/.test(line)) {
      binds++;
      out.push(`    bind 127.0.0.1:${listenPort}`);
    } else if (/^\s+stats socket\s/.test(line)) {
      sockets++;
      out.push(line.replace(/stats socket \S+/, `stats socket ${adminSocket}`));
    } else if (/^\s+server\s/.test(line)) {
      // The documented servers give way to this run's, at the place of the first.
      if (serverLines++ === 0) {
        out.push(`    # The harness: ${STEER_HEADER} picks an instance (while it is up), and ${SERVED_BY_HEADER} says which answered.`);
        for (const s of servers) out.push(`    use-server ${s.name} if { req.hdr(${STEER_HEADER}) -m str ${s.name} }`);
        out.push(`    http-response set-header ${SERVED_BY_HEADER} %[srv_name]`);
        for (const s of servers) out.push(`    server ${s.name} 127.0.0.1:${s.port}`);
      }
    } else {
      out.push(line);
    }
  }
  // The documented file changed shape: say so rather than test something else.
  if (binds !== 1 || sockets !== 1 || serverLines === 0) {
    throw new Error(`${HAPROXY_CONFIG} no longer has one bind, one stats socket and server lines (found ${binds}, ${sockets}, ${serverLines}): update the harness`);
  }
  return out.join("\n");
}

const tail = (file: string) => (existsSync(file) ? readFileSync(file, "utf8").trim().split("\n").slice(-10).join("\n") : "(no output)");

async function healthy(url: string, proc: Bun.Subprocess, logFile: string, until: number, what: string): Promise<void> {
  while (Date.now() < until) {
    if (proc.exitCode !== null || proc.signalCode !== null) throw new Error(`${what} exited (${proc.exitCode ?? proc.signalCode}):\n${tail(logFile)}`);
    try {
      if ((await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2_000) })).ok) return;
    } catch {}
    await Bun.sleep(50);
  }
  throw new Error(`${what} did not answer /healthz in time:\n${tail(logFile)}`);
}

async function ended(proc: Bun.Subprocess, withinMs: number): Promise<boolean> {
  if (proc.exitCode !== null || proc.signalCode !== null) return true;
  return Promise.race([proc.exited.then(() => true), Bun.sleep(withinMs).then(() => false)]);
}

/** A child whose output and errors go to one file (appended, so a restart adds to it); never a pipe nobody reads. */
function spawnLogged(cmd: string[], env: Record<string, string>, logFile: string): Bun.Subprocess {
  const fd = openSync(logFile, "a");
  try {
    return Bun.spawn(cmd, { cwd: root, env, stdin: "ignore", stdout: fd, stderr: fd });
  } finally {
    closeSync(fd);
  }
}

/** Everything live clusters hold, for the exit hook: a test process that dies leaves nothing running. */
const live = new Set<{ procs: () => Bun.Subprocess[]; databaseUrl: string | null; dir: string }>();
let exitHook = false;
function onExit() {
  for (const cluster of live) {
    for (const proc of cluster.procs()) if (proc.exitCode === null && proc.signalCode === null) proc.kill("SIGKILL");
    try {
      if (cluster.databaseUrl) dropDatabase(cluster.databaseUrl);
    } catch {}
    rmSync(cluster.dir, { recursive: true, force: true });
  }
}

export async function startCluster(options: ClusterOptions = {}): Promise<Cluster> {
  const why = await clusterUnavailable(options);
  if (why) throw new Error(why);
  const count = options.instances ?? 2;
  const until = Date.now() + (options.withinMs ?? 60_000);
  const dir = mkdtempSync(join(tmpdir(), "webchat-cluster-"));
  const uploadsDir = join(dir, "uploads");
  mkdirSync(uploadsDir);
  const cloned = options.databaseUrl === undefined;
  const databaseUrl = options.databaseUrl ?? cloneDatabase();
  const redisUrl = options.redisUrl ?? REDIS_TEST_URL;
  const redisPrefix = newPrefix();
  const procs: Bun.Subprocess[] = [];
  const entry = { procs: () => procs, databaseUrl: cloned ? databaseUrl : null, dir };
  live.add(entry);
  if (!exitHook) {
    exitHook = true;
    process.on("exit", onExit);
  }

  const instances: ClusterInstance[] = [];
  let haproxy: Bun.Subprocess | null = null;
  let stopped = false;

  async function stop(): Promise<void> {
    if (stopped) return;
    stopped = true;
    const problems: string[] = [];
    // SIGTERM first, so each marks itself dead in Redis; whatever still runs 6 s later is killed.
    await Promise.all(
      instances.map(async (instance) => {
        if (!instance.running()) return;
        instance.proc.kill("SIGTERM");
        if (!(await ended(instance.proc, 6_000))) {
          problems.push(`${instance.name} ignored SIGTERM for 6 s and was killed`);
          await instance.kill();
        }
      }),
    );
    if (haproxy && haproxy.exitCode === null && haproxy.signalCode === null) {
      haproxy.kill("SIGTERM");
      if (!(await ended(haproxy, 3_000))) haproxy.kill("SIGKILL");
      await haproxy.exited;
    }
    try {
      if (cloned) dropDatabase(databaseUrl);
    } catch (error) {
      problems.push(`database: ${(error as Error).message}`);
    }
    // After the processes: a running instance would write its keys back.
    const dropped = await Promise.race([dropPrefix(redisUrl, redisPrefix).then(() => true), Bun.sleep(5_000).then(() => false)]).catch(() => false);
    if (!dropped) problems.push(`the Redis keys under ${redisPrefix} were not all deleted`);
    live.delete(entry);
    rmSync(dir, { recursive: true, force: true });
    if (problems.length > 0) throw new Error(`cluster clean-up: ${problems.join("; ")}`);
  }

  try {
    for (let i = 1; i <= count; i++) {
      const name = `app${i}`;
      const port = freePort();
      const dataDir = join(dir, name);
      mkdirSync(dataDir);
      const logFile = join(dir, `${name}.log`);
      const env: Record<string, string> = {
        ...(process.env as Record<string, string>),
        DATA_DIR: dataDir,
        PORT: String(port),
        HOST: "127.0.0.1",
        DATABASE_URL: databaseUrl,
        REDIS_URL: redisUrl,
        REDIS_PREFIX: redisPrefix,
        JWT_SECRET,
        UPLOADS_DIR: uploadsDir,
        CLUSTER_PREVIEW: "1",
        // Behind HAProxy: the client's address is the last X-Forwarded-For entry.
        TRUST_PROXY: "1",
        LOG_LEVEL: process.env.TEST_SERVER_LOG_LEVEL ?? "warn",
        // Presence reaches strangers at once, as in the other test servers.
        PRESENCE_BATCH_SECONDS: "0",
        ...options.env,
      };
      const spawn = () => {
        const proc = spawnLogged([process.execPath, "src/server.ts"], env, logFile);
        procs.push(proc);
        return proc;
      };
      const instance: ClusterInstance = {
        name,
        port,
        url: `http://127.0.0.1:${port}`,
        wsUrl: `ws://127.0.0.1:${port}`,
        dataDir,
        logFile,
        proc: spawn(),
        running: () => instance.proc.exitCode === null && instance.proc.signalCode === null,
        async kill() {
          if (instance.running()) instance.proc.kill("SIGKILL");
          await instance.proc.exited;
        },
        async stop(withinMs = 6_000) {
          if (instance.running()) instance.proc.kill("SIGTERM");
          if (!(await ended(instance.proc, withinMs))) throw new Error(`${name} still ran ${withinMs} ms after SIGTERM`);
          return instance.proc.exitCode ?? -1;
        },
        async start() {
          if (instance.running()) throw new Error(`${name} is running`);
          instance.proc = spawn();
          await healthy(instance.url, instance.proc, logFile, Date.now() + 30_000, name);
        },
      };
      instances.push(instance);
    }
    await Promise.all(instances.map((i) => healthy(i.url, i.proc, i.logFile, until, i.name)));

    const port = freePort();
    const configFile = join(dir, "haproxy.cfg");
    writeFileSync(configFile, harnessConfig(readFileSync(HAPROXY_CONFIG, "utf8"), port, join(dir, "haproxy.sock"), instances));
    const haproxyLog = join(dir, "haproxy.log");
    // -db: in the foreground, so it is this process's child and its logs go to the file. -n: the
    // documented maxconn wants more file descriptors than a test process may open (ulimit -n).
    haproxy = spawnLogged([HAPROXY!, "-db", "-n", "4000", "-f", configFile], process.env as Record<string, string>, haproxyLog);
    procs.push(haproxy);
    const url = `http://127.0.0.1:${port}`;
    await healthy(url, haproxy, haproxyLog, until, "HAProxy");
    // Every instance reachable through it: HAProxy may take a check or two to call a server up.
    for (const instance of instances) {
      for (;;) {
        if (Date.now() > until) throw new Error(`HAProxy does not reach ${instance.name}:\n${tail(haproxyLog)}`);
        const answer = await fetch(`${url}/healthz`, { headers: { [STEER_HEADER]: instance.name } }).catch(() => null);
        if (answer?.ok && answer.headers.get(SERVED_BY_HEADER) === instance.name) break;
        await Bun.sleep(100);
      }
    }

    const steer = (name: string) => ({ [STEER_HEADER]: name });
    const call = async (method: string, path: string, options: ClusterRequest = {}): Promise<ClusterAnswer> => {
      const headers: Record<string, string> = { ...options.headers, ...(options.instance ? steer(options.instance) : {}) };
      if (options.token) headers.authorization = `Bearer ${options.token}`;
      let body = options.body;
      if (options.json !== undefined) {
        headers["content-type"] = "application/json";
        body = JSON.stringify(options.json);
      }
      const signal = options.timeoutMs ? AbortSignal.timeout(options.timeoutMs) : undefined;
      const response = await fetch(`${url}${path}`, { method, headers, body, signal });
      const text = await response.text();
      let parsed: any = text;
      try {
        parsed = JSON.parse(text);
      } catch {}
      return { status: response.status, body: parsed, text, retryAfter: response.headers.get("retry-after"), servedBy: response.headers.get(SERVED_BY_HEADER) };
    };
    let accounts = 0;
    const register = async (instance: string, country = "DE") => {
      const username = `cl_${process.pid % 1000}_${++accounts}`;
      const r = await call("POST", "/api/auth/register", {
        instance,
        json: { username, email: `${username}@example.com`, password: PASSWORD, name: `Cluster ${accounts}`, gender: "female", age: 30, country_code: country, adult: true },
      });
      if (r.status !== 201) throw new Error(`register through ${instance} answered ${r.status}: ${r.text}`);
      return { username, token: r.body.token as string, user: r.body.user as { id: number }, servedBy: r.servedBy };
    };
    return {
      url,
      wsUrl: `ws://127.0.0.1:${port}`,
      instances,
      instance(name) {
        const found = instances.find((i) => i.name === name);
        if (!found) throw new Error(`no instance ${name}`);
        return found;
      },
      databaseUrl,
      redisPrefix,
      haproxyPid: haproxy.pid,
      uploadsDir,
      steer,
      connect: (token, name) => connect(`ws://127.0.0.1:${port}`, token, name ? steer(name) : {}),
      call,
      register,
      stop,
    };
  } catch (error) {
    await stop().catch(() => undefined);
    throw error;
  }
}
