// Every environment variable the server reads, parsed and checked in one place. A bad value
// stops start-up with one line that names the variable (see server.ts); nothing else in the
// code reads process.env.
import { accessSync, chmodSync, constants, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { join, resolve } from "node:path";
import type { TurnSettings } from "./ice/credentials.ts";
import { clusterConfig, type ClusterConfig } from "./cluster/config.ts";
import { databaseConfig, type DatabaseConfig } from "./storage/config.ts";
import { pushSettings, type PushSettings } from "./push/settings.ts";

export interface RateLimit {
  perSecond: number;
  burst: number;
}

export interface IceServer {
  urls: string | string[];
  username?: string;
  credential?: string;
}

/** A third-party script that loads only after the visitor consents to its category (cookie banner). */
export interface OptionalScript {
  src: string;
  category: "analytics" | "advertising";
  name: string;
}

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** UPLOADS_DIR (absolute), the folder every instance shares; without it DATA_DIR/uploads. Stored files live here, the spool stays in DATA_DIR. */
  uploadsDir: string;
  /** Signs session tokens; from JWT_SECRET or a file generated in DATA_DIR. */
  secret: string;
  trustProxy: boolean;
  /** Origins allowed besides the site's own (for the socket and form posts). */
  allowedOrigins: string[];
  signupPerHour: number;
  /** Failed logins for one account from one client address in the window. */
  loginFailLimit: number;
  /** Failed logins for one account from all addresses together in the window. */
  loginFailAccountLimit: number;
  loginFailWindowMs: number;
  /** A session unused this long is refused and swept. */
  sessionTtlMs: number;
  /** `GET /api/users/:id` reads per user per minute. */
  profileReadsPerMinute: number;
  socketRate: RateLimit;
  /** Open `/ws` sockets per user and per client address (SOCKET_CAP). */
  socketCap: { perUser: number; perAddress: number };
  /** `/peerjs` peers per signed-in session (PEER_CAP). */
  peerCap: number;
  /** New `/ws` connections per user per minute. */
  socketConnectsPerMinute: number;
  /** How long a user whose last socket closed stays announced online, so a quick return is not news. */
  presenceGraceMs: number;
  /** PRESENCE_BATCH_SECONDS: how often strangers hear presence, a random time within min..max (0: at once). */
  presenceBatch: { minMs: number; maxMs: number };
  uploadsPerMinute: number;
  /** STORAGE_QUOTA_MB: bytes of chat files one user may have stored. */
  storageQuotaBytes: number;
  /** UPLOAD_INFLIGHT_MB: upload bytes being received at once, over all users. */
  uploadInflightBytes: number;
  /** Reports a user may file in an hour (merged reports do not count). */
  reportsPerHour: number;
  /** Weighted sexual-content or under-18 reports within 24 h that suspend a user from roulette. */
  reportAutoSuspend: number;
  /**
   * Roulette searches waiting at once from one client network (an IPv4 address or an IPv6 /64)
   * and from one device (ROULETTE_WAITING_PER_ADDRESS, ROULETTE_WAITING_PER_DEVICE).
   */
  rouletteWaiting: { perAddress: number; perDevice: number };
  /** ROULETTE_INTEREST_WAIT_SECONDS (issue 24): how long a search with interests waits for a shared one before taking anyone suitable. */
  rouletteInterestWaitMs: number;
  /** How long an unanswered call rings before the server ends it. */
  callRingMs: number;
  /** Days a closed report keeps its evidence, transcript and still (under-18 reports: until an admin deletes them). */
  reportRetentionDays: number;
  wsIdleMs: number;
  /** ICE_SERVERS: servers handed to browsers as they are (STUN, or a TURN server with fixed credentials). */
  iceServers: IceServer[];
  /** TURN_URLS, TURN_SECRET, TURN_TTL_SECONDS: a relay whose credentials the server mints per session (GET /api/ice). */
  turn: TurnSettings | null;
  /** "relay" (the default with TURN_URLS) hides users' addresses from each other; the server filters signalling too. */
  iceTransportPolicy: "all" | "relay";
  contactEmail: string;
  helpEmail: string;
  operatorName: string;
  operatorAddress: string;
  /** OPTIONAL_SCRIPTS: none by default, so nothing optional loads unless the operator adds it. */
  optionalScripts: OptionalScript[];
  /** METRICS_TOKEN: when set, /metrics wants it as a bearer token; when not, only loopback clients may scrape. */
  metricsToken: string | null;
  /** LOG_FORMAT: "json" writes one JSON object a line, for log collectors; "text" is for people. */
  logFormat: LogFormat;
  logLevel: LogLevel;
  /** REDIS_URL (with DATABASE_URL, JWT_SECRET, UPLOADS_DIR): several instances share Redis (src/cluster/); null: one process. */
  cluster: ClusterConfig | null;
  /** CLUSTER_PREVIEW: starts with REDIS_URL although several instances are not yet checked under load and faults; not for production. */
  clusterPreview: boolean;
  /** DATABASE_URL (with DATABASE_POOL, DATABASE_STATEMENT_TIMEOUT_MS): PostgreSQL; null: SQLite in DATA_DIR. */
  database: DatabaseConfig | null;
  /** Web Push: VAPID keys, push hosts, timeout, per-user rate (src/push/settings.ts). */
  push: PushSettings;
}

export const LOG_LEVELS = ["debug", "info", "warn", "error", "silent"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export type LogFormat = "text" | "json";

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  if (!/^\d+$/.test(raw.trim())) throw new ConfigError(`${name} must be a whole number, got "${raw}"`);
  const value = Number(raw.trim());
  if (value < min || value > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${value}`);
  return value;
}

/** A number of seconds that may have a fraction (tests wait a fraction of a second). */
function decimal(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  if (!/^\d+(\.\d+)?$/.test(raw.trim())) throw new ConfigError(`${name} must be a number, got "${raw}"`);
  const value = Number(raw.trim());
  if (value < min || value > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${value}`);
  return value;
}

function flag(env: Env, name: string): boolean {
  const raw = (env[name] ?? "").trim().toLowerCase();
  if (["", "0", "false", "no", "off"].includes(raw)) return false;
  if (["1", "true", "yes", "on"].includes(raw)) return true;
  throw new ConfigError(`${name} must be true or false, got "${env[name]}"`);
}

function origins(env: Env): string[] {
  const raw = env.ALLOWED_ORIGINS ?? "";
  return raw
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)
    .map((origin) => {
      try {
        const url = new URL(origin);
        if (url.origin !== origin.replace(/\/$/, "")) throw new Error();
        return url.origin;
      } catch {
        throw new ConfigError(`ALLOWED_ORIGINS must list origins such as https://example.com, got "${origin}"`);
      }
    });
}

function socketRate(env: Env): RateLimit {
  const raw = (env.SOCKET_RATE_LIMIT ?? "").trim();
  if (raw === "") return { perSecond: 20, burst: 40 };
  const match = /^(\d+)(?:[:/](\d+))?$/.exec(raw);
  if (!match) throw new ConfigError(`SOCKET_RATE_LIMIT must be "rate" or "rate:burst" (events a second), got "${raw}"`);
  const perSecond = Number(match[1]);
  const burst = match[2] ? Number(match[2]) : perSecond * 2;
  if (perSecond < 1 || burst < perSecond) throw new ConfigError(`SOCKET_RATE_LIMIT needs rate >= 1 and burst >= rate, got "${raw}"`);
  return { perSecond, burst };
}

function socketCap(env: Env): Config["socketCap"] {
  const raw = (env.SOCKET_CAP ?? "").trim();
  if (raw === "") return { perUser: 10, perAddress: 50 };
  const match = /^(\d+):(\d+)$/.exec(raw);
  const perUser = Number(match?.[1]);
  const perAddress = Number(match?.[2]);
  if (!match || perUser < 1 || perAddress < perUser) throw new ConfigError(`SOCKET_CAP must be "per user:per address" with 1 <= per user <= per address, got "${raw}"`);
  return { perUser, perAddress };
}

/** "min:max" seconds between two presence batches, or one number for a fixed interval; "0" turns batching off. */
function presenceBatch(env: Env): Config["presenceBatch"] {
  const raw = (env.PRESENCE_BATCH_SECONDS ?? "").trim();
  if (raw === "") return { minMs: 30_000, maxMs: 60_000 };
  const match = /^(\d+)(?::(\d+))?$/.exec(raw);
  const min = Number(match?.[1]);
  const max = match?.[2] === undefined ? min : Number(match[2]);
  if (!match || max < min || max > 3600) throw new ConfigError(`PRESENCE_BATCH_SECONDS must be "min:max" seconds with min <= max <= 3600, got "${raw}"`);
  return { minMs: min * 1000, maxMs: max * 1000 };
}

/** Without a relay a public STUN server lets browsers behind NAT find each other; with one it is not needed. */
function iceServers(env: Env, withTurn: boolean): IceServer[] {
  const raw = env.ICE_SERVERS;
  if (raw === undefined || raw.trim() === "") return withTurn ? [] : [{ urls: "stun:stun.l.google.com:19302" }];
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new ConfigError("ICE_SERVERS must be a JSON list such as [{\"urls\":\"stun:stun.example.com:3478\"}]");
  }
  const isUrls = (u: unknown) => typeof u === "string" || (Array.isArray(u) && u.every((x) => typeof x === "string"));
  const valid =
    Array.isArray(parsed) &&
    parsed.every(
      (s) =>
        typeof s === "object" &&
        s !== null &&
        isUrls((s as IceServer).urls) &&
        ["undefined", "string"].includes(typeof (s as IceServer).username) &&
        ["undefined", "string"].includes(typeof (s as IceServer).credential),
    );
  if (!valid) throw new ConfigError("ICE_SERVERS must be a JSON list of {urls, username?, credential?}");
  return parsed as IceServer[];
}

const TURN_URL = /^turns?:[^\s,?]+(\?transport=(udp|tcp))?$/;

function turn(env: Env): TurnSettings | null {
  const urls = (env.TURN_URLS ?? "").split(",").map((u) => u.trim()).filter(Boolean);
  const secret = env.TURN_SECRET ?? "";
  const ttlSeconds = integer(env, "TURN_TTL_SECONDS", 86_400, 60, 30 * 86_400);
  if (urls.length === 0) {
    if (secret !== "") throw new ConfigError("TURN_SECRET is set but TURN_URLS is not: set both, or neither");
    return null;
  }
  for (const url of urls) {
    if (!TURN_URL.test(url)) throw new ConfigError(`TURN_URLS must list turn: or turns: URLs such as turn:turn.example.com:3478?transport=udp, got "${url}"`);
  }
  if (secret.length < 32) throw new ConfigError("TURN_SECRET (coturn's static-auth-secret) must be at least 32 characters when TURN_URLS is set");
  return { urls, secret, ttlSeconds };
}

function optionalScripts(env: Env): OptionalScript[] {
  const raw = env.OPTIONAL_SCRIPTS;
  if (raw === undefined || raw.trim() === "") return [];
  const problem = 'OPTIONAL_SCRIPTS must be a JSON list of {"src": "https://...", "category": "analytics" or "advertising", "name": "..."}';
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new ConfigError(problem);
  }
  if (!Array.isArray(parsed)) throw new ConfigError(problem);
  return parsed.map((item: unknown) => {
    const s = (typeof item === "object" && item !== null ? item : {}) as Record<string, unknown>;
    const src = typeof s.src === "string" ? s.src : "";
    const category = s.category;
    if (!/^https:\/\/\S+$/.test(src) || (category !== "analytics" && category !== "advertising") || typeof s.name !== "string" || !s.name.trim()) {
      throw new ConfigError(problem);
    }
    return { src, category, name: s.name.trim() };
  });
}

function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const raw = (env[name] ?? "").trim().toLowerCase();
  if (raw === "") return fallback;
  if (!(allowed as readonly string[]).includes(raw)) throw new ConfigError(`${name} must be one of ${allowed.join(", ")}, got "${env[name]}"`);
  return raw as T;
}

/** A scrape token is a password: long enough not to be guessed, and free of spaces a header would split. */
function metricsToken(env: Env): string | null {
  const raw = env.METRICS_TOKEN;
  if (raw === undefined || raw === "") return null;
  if (!/^[\x21-\x7e]{16,256}$/.test(raw)) throw new ConfigError("METRICS_TOKEN must be 16 to 256 printable characters without spaces");
  return raw;
}

function email(env: Env, name: string, fallback: string): string {
  const value = (env[name] ?? fallback).trim();
  if (!/^[^\s@]+@[^\s@]+$/.test(value)) throw new ConfigError(`${name} must be an e-mail address, got "${value}"`);
  return value;
}

/** The signing secret: JWT_SECRET, or one generated once and kept owner-only in DATA_DIR. */
function secret(env: Env, dataDir: string): string {
  const given = env.JWT_SECRET;
  if (given !== undefined && given !== "") {
    if (given.length < 32) throw new ConfigError("JWT_SECRET must be at least 32 characters");
    return given;
  }
  const file = join(dataDir, "secret.key");
  if (existsSync(file)) {
    const stored = readFileSync(file, "utf8").trim();
    if (stored.length >= 32) return stored;
  }
  const fresh = randomBytes(48).toString("base64url");
  writeFileSync(file, fresh + "\n", { mode: 0o600 });
  chmodSync(file, 0o600);
  return fresh;
}

/**
 * UPLOADS_DIR when set, else DATA_DIR/uploads as before. It must already exist and be writable:
 * it is meant to be a shared mount, and a folder made here when the mount is missing would split
 * the files between instances without a word.
 */
function uploadsFolder(env: Env, dataDir: string): string {
  const given = (env.UPLOADS_DIR ?? "").trim();
  if (given === "") return join(dataDir, "uploads");
  const folder = resolve(given);
  try {
    if (!statSync(folder).isDirectory()) throw new Error("not a folder");
    accessSync(folder, constants.W_OK);
  } catch (error) {
    throw new ConfigError(`UPLOADS_DIR "${folder}" must be an existing folder this server can write (the mount every instance shares): ${(error as Error).message}`);
  }
  return folder;
}

export function loadConfig(env: Env = process.env): Config {
  const dataDir = resolve(env.DATA_DIR?.trim() || "./data");
  try {
    mkdirSync(join(dataDir, "uploads"), { recursive: true });
  } catch (error) {
    throw new ConfigError(`DATA_DIR "${dataDir}" cannot be created: ${(error as Error).message}`);
  }
  const uploadsDir = uploadsFolder(env, dataDir);
  const relay = turn(env);
  const contactEmail = email(env, "CONTACT_EMAIL", "contact@example.com");
  const policy = (env.ICE_TRANSPORT_POLICY ?? "").trim() || (relay ? "relay" : "all");
  if (policy !== "all" && policy !== "relay") throw new ConfigError(`ICE_TRANSPORT_POLICY must be "all" or "relay", got "${policy}"`);
  return {
    port: integer(env, "PORT", 5001, 0, 65535),
    host: env.HOST?.trim() || "0.0.0.0",
    dataDir,
    uploadsDir,
    secret: secret(env, dataDir),
    trustProxy: flag(env, "TRUST_PROXY"),
    allowedOrigins: origins(env),
    signupPerHour: integer(env, "SIGNUP_RATE_LIMIT", 100, 1, 1_000_000),
    loginFailLimit: integer(env, "LOGIN_FAIL_LIMIT", 10, 1, 1_000_000),
    loginFailAccountLimit: integer(env, "LOGIN_FAIL_ACCOUNT_LIMIT", 50, 1, 1_000_000),
    loginFailWindowMs: integer(env, "LOGIN_FAIL_WINDOW_MINUTES", 15, 1, 24 * 60) * 60_000,
    sessionTtlMs: integer(env, "SESSION_TTL_DAYS", 30, 1, 3650) * 86_400_000,
    profileReadsPerMinute: integer(env, "PROFILE_RATE_LIMIT", 120, 1, 1_000_000),
    socketRate: socketRate(env),
    socketCap: socketCap(env),
    peerCap: integer(env, "PEER_CAP", 4, 1, 1000),
    socketConnectsPerMinute: integer(env, "SOCKET_CONNECT_LIMIT", 30, 1, 1_000_000),
    presenceGraceMs: integer(env, "PRESENCE_GRACE_SECONDS", 5, 0, 300) * 1000,
    presenceBatch: presenceBatch(env),
    uploadsPerMinute: integer(env, "UPLOAD_RATE_LIMIT", 60, 1, 1_000_000),
    storageQuotaBytes: integer(env, "STORAGE_QUOTA_MB", 1024, 1, 100_000_000) * 1024 * 1024,
    uploadInflightBytes: integer(env, "UPLOAD_INFLIGHT_MB", 256, 1, 1_000_000) * 1024 * 1024,
    reportsPerHour: integer(env, "REPORT_RATE_LIMIT", 20, 1, 1_000_000),
    reportAutoSuspend: integer(env, "REPORT_AUTO_SUSPEND", 3, 1, 1000),
    rouletteWaiting: {
      perAddress: integer(env, "ROULETTE_WAITING_PER_ADDRESS", 3, 1, 1_000_000),
      perDevice: integer(env, "ROULETTE_WAITING_PER_DEVICE", 1, 1, 1_000_000),
    },
    rouletteInterestWaitMs: Math.round(decimal(env, "ROULETTE_INTEREST_WAIT_SECONDS", 10, 0, 3600) * 1000),
    callRingMs: integer(env, "CALL_RING_SECONDS", 60, 1, 3600) * 1000,
    reportRetentionDays: integer(env, "REPORT_RETENTION_DAYS", 90, 1, 36_500),
    wsIdleMs: integer(env, "WS_IDLE_TIMEOUT_SECONDS", 45, 5, 3600) * 1000,
    iceServers: iceServers(env, relay !== null),
    turn: relay,
    iceTransportPolicy: policy,
    contactEmail,
    helpEmail: email(env, "HELP_EMAIL", "help@example.com"),
    operatorName: (env.OPERATOR_NAME ?? "").trim() || "Web Chat",
    operatorAddress: (env.OPERATOR_ADDRESS ?? "").trim() || "Address available on request at the contact e-mail",
    optionalScripts: optionalScripts(env),
    metricsToken: metricsToken(env),
    logFormat: oneOf(env, "LOG_FORMAT", ["text", "json"], "text"),
    logLevel: oneOf(env, "LOG_LEVEL", LOG_LEVELS, "info"),
    cluster: clusterConfig(env),
    clusterPreview: flag(env, "CLUSTER_PREVIEW"),
    database: databaseConfig(env),
    push: pushSettings(env, dataDir, contactEmail, (name, fallback, min, max) => integer(env, name, fallback, min, max), (message) => new ConfigError(message)),
  };
}
