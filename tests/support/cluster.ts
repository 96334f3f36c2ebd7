// The two engines behind the cluster ports (src/cluster/), for contract tests that run the same
// checks against both: `local` (one process) and `redis` (the machine's Redis at 127.0.0.1:6379,
// or REDIS_TEST_URL, under a random key prefix deleted afterwards). Redis instances made here
// heartbeat every 100 ms and call a silent one dead after 1.5 s, so expiry is quick to test and a
// loaded machine (a stalled event loop) does not make a live one look dead.
import { afterEach } from "bun:test";
import { randomBytes } from "node:crypto";
import { localPorts } from "../../src/cluster/local.ts";
import type { Ports } from "../../src/cluster/ports.ts";
import { dropPrefix, redisPorts, type RedisPortsOptions } from "../../src/cluster/redis.ts";

import { REDIS_TEST_URL } from "../../scripts/machine/redis.ts";
import { ThrowawayRedis } from "./throwaway-redis.ts";

export { REDIS_TEST_URL };

export const FAST = { heartbeatMs: 100, instanceTtlMs: 1500 } as const;

export interface Engine {
  name: "local" | "redis";
  /** Whether several instances share state (local: there is only one process). */
  shared: boolean;
  /** An instance: with redis a new one on the shared prefix each time; with local, the one process. */
  instance(options?: Partial<RedisPortsOptions>): Ports;
  /** Closes every instance made and deletes the prefix's keys. */
  cleanup(): Promise<void>;
}

export const newPrefix = () => `test:${randomBytes(6).toString("hex")}:`;

export function localEngine(): Engine {
  let ports: Ports | null = null;
  return {
    name: "local",
    shared: false,
    instance: () => (ports ??= localPorts()),
    cleanup: async () => void (await ports?.close()),
  };
}

export function redisEngine(url = REDIS_TEST_URL): Engine {
  const prefix = newPrefix();
  const made: Ports[] = [];
  return {
    name: "redis",
    shared: true,
    instance(options = {}) {
      const ports = redisPorts({ url, prefix, ...FAST, ...options });
      made.push(ports);
      return ports;
    },
    async cleanup() {
      await Promise.all(made.splice(0).map((ports) => ports.close()));
      await dropPrefix(url, prefix);
    },
  };
}

/** Both engines, for `describe.each`. */
export const engines: [string, () => Engine][] = [
  ["local", localEngine],
  ["redis", () => redisEngine()],
];

/**
 * A new engine for each test of a describe block (`make`: one of `engines`, or redisEngine), so no
 * test sees another's keys or instances: `two()` or `instances(n)` makes it and its instances,
 * ready; after the test it is cleaned up.
 */
export function enginePerTest(make: () => Engine) {
  let current: Engine | null = null;
  afterEach(async () => {
    await current?.cleanup();
    current = null;
  });
  const instances = async (n: number): Promise<Ports[]> => {
    const engine = (current = make());
    const made = Array.from({ length: n }, () => engine.instance());
    await Promise.all(made.map((ports) => ports.ready()));
    return made;
  };
  return {
    /** The running test's engine, once it made its instances. */
    get engine(): Engine {
      if (!current) throw new Error("the engine is read before the test made its instances");
      return current;
    },
    instances,
    async two(): Promise<[Ports, Ports]> {
      const [a, b] = await instances(2);
      return [a!, b!];
    },
  };
}

/**
 * For tests that stop and restart Redis: `start()` gives the running test a redis-server of its
 * own on a free port (the machine's is never stopped) and an engine on it; after the test the
 * engine is cleaned up and the server removed. Register it after the file's own afterEach that
 * closes apps on the engine: bun runs the hooks in order.
 */
export function throwawayRedisPerTest() {
  let current: { server: ThrowawayRedis; engine: Engine } | null = null;
  afterEach(async () => {
    const done = current;
    current = null;
    await done?.engine.cleanup().catch(() => {});
    await done?.server.remove();
  });
  return {
    async start(): Promise<{ server: ThrowawayRedis; engine: Engine }> {
      const server = new ThrowawayRedis();
      await server.start();
      current = { server, engine: redisEngine(server.url) };
      return current;
    },
  };
}
