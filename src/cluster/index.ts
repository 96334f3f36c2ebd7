// Picks the ports once at start-up (context.ts): Redis when REDIS_URL is set, else one process.
import type { Config } from "../config.ts";
import type { Logger } from "../observability/log.ts";
import { localPorts } from "./local.ts";
import type { Ports } from "./ports.ts";
import { redisPorts } from "./redis.ts";

export function createPorts(config: Config, log: Logger): Ports {
  if (!config.cluster) return localPorts();
  return redisPorts({ url: config.cluster.redisUrl, prefix: config.cluster.prefix, warn: (message, fields) => log.warn(message, fields) });
}

export type { Ports } from "./ports.ts";
