// The two servers of the differential test, with the same short timings: the real `peer` 1.0.2
// on a port of its own, and our endpoint on a test app's context with a signed-in user.
import { afterAll, beforeAll, expect } from "bun:test";
import { Elysia } from "elysia";
import type { Server as HttpServer } from "node:http";
import { PeerServer } from "peer";
import { peerRoutes } from "../../src/peerjs/index.ts";
import { MAX_FRAME_BYTES } from "../../src/realtime/index.ts";
import { makeTestApp, registerUser } from "../support/app.ts";
import { redisEngine } from "../support/cluster.ts";
import { freePort } from "../support/ports.ts";
import { runAll, type Scenario, type Server } from "./lab.ts";

export const TIMINGS = { expireTimeoutMs: 300, cleanupIntervalMs: 100, aliveTimeoutMs: 1500, aliveCheckIntervalMs: 300 };

export interface Running {
  server: Server;
  stop(): Promise<void>;
}

export async function startReference(): Promise<Running> {
  const port = freePort();
  const http = await new Promise<HttpServer>((resolve) => {
    const peer = PeerServer(
      {
        port,
        host: "127.0.0.1",
        path: "/peerjs",
        key: "peerjs",
        allow_discovery: false,
        expire_timeout: TIMINGS.expireTimeoutMs,
        cleanup_out_msgs: TIMINGS.cleanupIntervalMs,
        alive_timeout: TIMINGS.aliveTimeoutMs,
      },
      (server) => resolve(server as HttpServer),
    );
    // peer reports frames it cannot parse as "error" events; unheard, they would be thrown.
    peer.on("error", () => {});
  });
  return {
    server: { name: "peer 1.0.2", httpUrl: `http://127.0.0.1:${port}`, wsUrl: `ws://127.0.0.1:${port}`, headers: {} },
    stop: () =>
      new Promise((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}

/** Our routes over a real app context; `engineName` "redis": its ports over the machine's Redis (one instance). */
export async function startOurs(engineName: "local" | "redis" = "local"): Promise<Running & { token: string }> {
  const cluster = engineName === "redis" ? redisEngine() : null;
  const t = makeTestApp({}, { ports: cluster?.instance() });
  await t.ctx.ports.ready();
  const { token } = await registerUser(t);
  // The same websocket settings as buildApp, since they are global to the Bun server.
  const app = new Elysia({ websocket: { maxPayloadLength: MAX_FRAME_BYTES, idleTimeout: 120 } })
    .use(peerRoutes(t.ctx, TIMINGS))
    .listen({ port: 0, hostname: "127.0.0.1" });
  const port = app.server!.port!;
  return {
    token,
    server: {
      name: "ours",
      httpUrl: `http://127.0.0.1:${port}`,
      wsUrl: `ws://127.0.0.1:${port}`,
      headers: { cookie: `sid=${encodeURIComponent(token)}` },
    },
    async stop() {
      await app.stop(true);
      await t.close();
      await cluster?.cleanup();
    },
  };
}

/**
 * Starts the servers around a test file and returns its comparison: the scenario's transcript
 * from peer must equal `expected` (so the scenario proves something), and ours must equal peer's
 * on both engines of src/peerjs/engine.ts: one process, and over Redis (one instance; a fresh key
 * prefix; tests/cluster/peerjs.test.ts runs two).
 */
export function differential(): (scenario: Scenario, expected: string[]) => Promise<void> {
  let reference: Running | undefined;
  let ours: Running | undefined;
  let oursOverRedis: Running | undefined;
  beforeAll(async () => {
    [reference, ours, oursOverRedis] = await Promise.all([startReference(), startOurs("local"), startOurs("redis")]);
  });
  afterAll(async () => {
    await Promise.all([reference?.stop(), ours?.stop(), oursOverRedis?.stop()]);
  });
  return async (scenario, expected) => {
    if (!reference || !ours || !oursOverRedis) throw new Error("servers not started");
    const [theirs, mine, mineOverRedis] = await runAll([reference.server, ours.server, oursOverRedis.server], scenario);
    expect(theirs).toEqual(expected);
    expect(mine).toEqual(theirs);
    expect(mineOverRedis).toEqual(theirs);
  };
}
