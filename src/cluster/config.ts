// REDIS_URL turns on several instances (API.md "Several instances"). They share PostgreSQL
// (DATABASE_URL), the signing secret (JWT_SECRET) and one uploads folder (UPLOADS_DIR); a cluster
// configuration lacking any of them stops start-up with one line naming it.
import { ConfigError } from "../config.ts";

export interface ClusterConfig {
  redisUrl: string;
  /** REDIS_PREFIX: every key and channel starts with it, so deployments can share one Redis. */
  prefix: string;
}

type Env = Record<string, string | undefined>;

export function clusterConfig(env: Env): ClusterConfig | null {
  const redisUrl = (env.REDIS_URL ?? "").trim();
  if (redisUrl === "") return null;
  if (!/^rediss?:\/\/\S+$/.test(redisUrl)) throw new ConfigError(`REDIS_URL must be a redis:// or rediss:// URL, got "${redisUrl}"`);
  const database = (env.DATABASE_URL ?? "").trim();
  if (!/^postgres(ql)?:\/\/\S+$/.test(database)) {
    throw new ConfigError("REDIS_URL runs several instances, which share PostgreSQL: set DATABASE_URL to a postgres:// URL");
  }
  if ((env.JWT_SECRET ?? "") === "") throw new ConfigError("REDIS_URL runs several instances, which must sign sessions alike: set JWT_SECRET");
  if ((env.UPLOADS_DIR ?? "").trim() === "") throw new ConfigError("REDIS_URL runs several instances, which must share uploads: set UPLOADS_DIR to a folder every instance mounts");
  const prefix = (env.REDIS_PREFIX ?? "").trim() || "webchat:";
  if (!/^[\w:.-]{1,64}$/.test(prefix)) throw new ConfigError(`REDIS_PREFIX must be 1 to 64 letters, digits or : . _ -, got "${prefix}"`);
  return { redisUrl, prefix };
}
