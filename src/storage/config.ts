// DATABASE_URL chooses PostgreSQL (API.md "Several instances"); without it the data stays in
// SQLite under DATA_DIR. The pool and the statement timeout only mean something with it.
import { ConfigError } from "../config.ts";

export interface DatabaseConfig {
  url: string;
  /** DATABASE_POOL: connections this instance keeps open at most (PostgreSQL's max_connections is shared by every instance). */
  pool: number;
  /** DATABASE_STATEMENT_TIMEOUT_MS: a statement running longer is cancelled, and its request answers 503 unavailable. */
  statementTimeoutMs: number;
}

type Env = Record<string, string | undefined>;

const POSTGRES_URL = /^postgres(ql)?:\/\/\S+$/;

function whole(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = (env[name] ?? "").trim();
  if (raw === "") return fallback;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < min || value > max) throw new ConfigError(`${name} must be a whole number from ${min} to ${max}, got "${raw}"`);
  return value;
}

export function databaseConfig(env: Env): DatabaseConfig | null {
  const url = (env.DATABASE_URL ?? "").trim();
  if (url === "") return null;
  if (!POSTGRES_URL.test(url)) throw new ConfigError("DATABASE_URL must be a postgres:// or postgresql:// URL (or unset, for SQLite in DATA_DIR)");
  return {
    url,
    pool: whole(env, "DATABASE_POOL", 10, 1, 1000),
    statementTimeoutMs: whole(env, "DATABASE_STATEMENT_TIMEOUT_MS", 5000, 100, 600_000),
  };
}
