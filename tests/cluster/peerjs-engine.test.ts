// The Redis PeerJS engine without servers: two or three engines on instances of one Redis prefix,
// with fake sockets and no sweep unless a test asks for one, so that the paths a whole-app test
// meets only by timing are met for certain: a frame to a dead instance's peer answered LEAVE, a
// send that fails on the holder's instance answered LEAVE across instances, a refused bound
// answered EXPIRE, and a takeover's old instance forgetting the id.
import { afterEach, describe, expect, test } from "bun:test";
import { redisPeerEngine } from "../../src/cluster/peerjs-redis.ts";
import type { Ports } from "../../src/cluster/ports.ts";
import type { PeerEngine } from "../../src/peerjs/engine.ts";
import { DEFAULT_PEER_OPTIONS } from "../../src/peerjs/options.ts";
import type { PeerClient } from "../../src/peerjs/registry.ts";
import { join as joinPath } from "node:path";
import { REDIS_TEST_URL, redisEngine, type Engine } from "../support/cluster.ts";
import { spawnReady } from "../support/children.ts";
import { until } from "../support/until.ts";
import { FakeSocket, ownerOf } from "../peerjs/fake-socket.ts";

/** No sweep runs within a test: what a sweep would do is not mixed into what is checked. */
const QUIET = { ...DEFAULT_PEER_OPTIONS, cleanupIntervalMs: 600_000, aliveCheckIntervalMs: 600_000 };

let cluster: Engine;
const engines: PeerEngine[] = [];

afterEach(async () => {
  for (const engine of engines.splice(0)) engine.stop();
  await cluster?.cleanup();
});

async function node(options = QUIET): Promise<{ ports: Ports; engine: PeerEngine }> {
  cluster ??= redisEngine();
  const ports = cluster.instance();
  await ports.ready();
  const engine = redisPeerEngine(ports.redis!)({ options, apart: () => false, relayOnly: false });
  engines.push(engine);
  return { ports, engine };
}


async function join(engine: PeerEngine, id: string, userId: number, socket = new FakeSocket(), token = "tok"): Promise<{ client: PeerClient; socket: FakeSocket }> {
  const client = await engine.connect(socket, { id, token, key: "peerjs" }, ownerOf(userId));
  if (!client) throw new Error(`${id} was refused: ${JSON.stringify(socket.sent)}`);
  socket.sent = [];
  return { client, socket };
}

describe("the Redis PeerJS engine", () => {
  test("a frame to a peer of a dead instance lets its id go and is answered LEAVE; the next one waits", async () => {
    const a = await node();
    const c = await node();
    const alice = await join(a.engine, "alice", 1);
    await join(c.engine, "carl", 2);
    // C's instance is marked dead (as its shutdown does, and as its heartbeat's age would).
    await c.ports.close();
    a.engine.frame(alice.client, { type: "OFFER", dst: "carl", payload: 1 });
    await until(() => alice.socket.sent.length > 0, "an answer");
    expect(alice.socket.sent).toEqual([{ type: "LEAVE", src: "carl", dst: "alice" }]);
    const { cmd, prefix } = a.ports.redis!;
    expect(await cmd.exists(`${prefix}pj:id:carl`, `${prefix}pj:n:u:2`)).toBe(0);
    a.engine.frame(alice.client, { type: "OFFER", dst: "carl", payload: 2 });
    await until(async () => (await cmd.llen(`${prefix}pj:q:carl`)) === 1, "the next OFFER waiting");
  });

  test("a send that fails on the holder's instance closes it and tells the sender on the other instance LEAVE", async () => {
    const a = await node();
    const b = await node();
    const alice = await join(a.engine, "alice", 1);
    const dead = new FakeSocket(false);
    await join(b.engine, "bob", 2, dead);
    a.engine.frame(alice.client, { type: "OFFER", dst: "bob", payload: 1 });
    await until(() => alice.socket.sent.length > 0, "an answer");
    expect(alice.socket.sent).toEqual([{ type: "LEAVE", src: "bob", dst: "alice" }]);
    expect(dead.closed).toBe(true);
    await b.ports.settled();
    const { cmd, prefix } = a.ports.redis!;
    expect(await cmd.exists(`${prefix}pj:id:bob`)).toBe(0);
  });

  test("taken over with its token on B, the id is forgotten on A: frames for it go to B, and A's old socket closing frees nothing", async () => {
    const a = await node();
    const b = await node();
    const old = await join(a.engine, "dora", 4, new FakeSocket(), "dora");
    const again = await join(b.engine, "dora", 4, new FakeSocket(), "dora");
    expect(again.socket.sent).toEqual([]);
    const sender = await join(a.engine, "eve", 5);
    // A hears of the takeover on its channel; until then a frame for the id would still go to the old socket.
    await until(async () => {
      a.engine.frame(sender.client, { type: "CANDIDATE", dst: "dora", payload: "x" });
      await Bun.sleep(20);
      return again.socket.sent.length > 0;
    }, "frames for the id reaching B");
    a.engine.closed(old.client, old.socket);
    await a.ports.settled();
    const { cmd, prefix } = a.ports.redis!;
    expect(await cmd.hget(`${prefix}pj:id:dora`, "node")).toStartWith(`${b.ports.redis!.instanceId}.`);
    expect(Number(await cmd.get(`${prefix}pj:n:u:4`))).toBe(1);
  });

  test("past a bound the sender is answered EXPIRE at once; with the sweep on, what waited expires with one EXPIRE per destination", async () => {
    const a = await node({ ...QUIET, maxQueuedPerPeer: 2, expireTimeoutMs: 200, cleanupIntervalMs: 50 });
    const alice = await join(a.engine, "alice", 1);
    for (let i = 0; i < 3; i++) a.engine.frame(alice.client, { type: "CANDIDATE", dst: "nobody", payload: i });
    await until(() => alice.socket.sent.length > 0, "the refusal");
    expect(alice.socket.sent).toEqual([{ type: "EXPIRE", src: "nobody", dst: "alice" }]);
    await until(() => alice.socket.sent.length > 1, "the expiry");
    await Bun.sleep(300);
    expect(alice.socket.sent).toEqual([
      { type: "EXPIRE", src: "nobody", dst: "alice" },
      { type: "EXPIRE", src: "nobody", dst: "alice" },
    ]);
    const { cmd, prefix } = a.ports.redis!;
    expect(await cmd.exists(`${prefix}pj:q:nobody`, `${prefix}pj:qb:1`, `${prefix}pj:qb`)).toBe(0);
  });

  test("kill -9 an instance: a frame to its peer is answered LEAVE once its heartbeat is past the TTL, its ids come free, a sweep gives back its cap places", async () => {
    const a = await node();
    const prefix = a.ports.redis!.prefix;
    const child = await spawnReady(joinPath(import.meta.dir, "peerjs-child.ts"), { REDIS_URL: REDIS_TEST_URL, PREFIX: prefix, USER_ID: "7", IDS: "zed,yan" });
    try {
      const { cmd } = a.ports.redis!;
      expect(Number(await cmd.get(`${prefix}pj:n:u:7`))).toBe(2);
      const refused = new FakeSocket();
      expect(await a.engine.connect(refused, { id: "zed", token: "mine", key: "peerjs" }, ownerOf(8))).toBeNull();
      expect(refused.sent).toEqual([{ type: "ID-TAKEN", payload: { msg: "ID is taken" } }]);
      const alice = await join(a.engine, "alice", 1);
      child.kill(9);
      await child.exited;
      // Until the TTL passes, frames go to the dead instance's channel and are lost (at most once).
      await until(async () => {
        a.engine.frame(alice.client, { type: "OFFER", dst: "zed", payload: 1 });
        await Bun.sleep(100);
        return alice.socket.sent.length > 0;
      }, "an answer from the dead instance's peer", 10_000);
      expect(alice.socket.sent[0]).toEqual({ type: "LEAVE", src: "zed", dst: "alice" });
      const taken = await join(a.engine, "zed", 8, new FakeSocket(), "mine");
      expect(taken.client.owner.userId).toBe(8);
      // Its other id is let go by the next sweep of any live node.
      await node({ ...QUIET, cleanupIntervalMs: 100 });
      await until(async () => (await cmd.exists(`${prefix}pj:n:u:7`, `${prefix}pj:id:yan`)) === 0, "the sweep letting go of the dead instance's last id");
      expect((await cmd.smembers(`${prefix}pj:hosts`)).some((n) => !n.startsWith(a.ports.redis!.instanceId))).toBe(false);
    } finally {
      child.kill(9);
    }
  }, 30_000);
});
