// PeerJS signalling while Redis goes away and comes back empty (a restart without persistence),
// on a throwaway redis-server on a free port (the machine's Redis is never stopped). Meanwhile a
// new peer cannot claim its id (the routes close its socket with 1013, to connect again) and
// frames are lost (at most once, as to a dying socket), never a crash; once Redis is back, each
// instance writes back the peers it holds, so ids are taken again and frames cross again.
import { afterEach, expect, test } from "bun:test";
import { redisPeerEngine } from "../../src/cluster/peerjs-redis.ts";
import type { Ports } from "../../src/cluster/ports.ts";
import type { PeerEngine } from "../../src/peerjs/engine.ts";
import { DEFAULT_PEER_OPTIONS } from "../../src/peerjs/options.ts";
import { throwawayRedisPerTest } from "../support/cluster.ts";
import { until } from "../support/until.ts";
import { FakeSocket, ownerOf } from "../peerjs/fake-socket.ts";

const engines: PeerEngine[] = [];

afterEach(() => {
  for (const engine of engines.splice(0)) engine.stop();
});
const redis = throwawayRedisPerTest();

const OPTIONS = { ...DEFAULT_PEER_OPTIONS, cleanupIntervalMs: 100 };

function engineOn(ports: Ports): PeerEngine {
  const engine = redisPeerEngine(ports.redis!)({ options: OPTIONS, apart: () => false, relayOnly: false });
  engines.push(engine);
  return engine;
}

test("Redis restarts empty: a claim fails meanwhile and frames are lost, then held ids are written back and frames cross again", async () => {
  const { server, engine: cluster } = await redis.start();
  const a = cluster.instance();
  const b = cluster.instance();
  await Promise.all([a.ready(), b.ready()]);
  const engineA = engineOn(a);
  const engineB = engineOn(b);
  const aliceSocket = new FakeSocket();
  const alice = (await engineA.connect(aliceSocket, { id: "alice", token: "t", key: "peerjs" }, ownerOf(1)))!;
  const bobSocket = new FakeSocket();
  expect(await engineB.connect(bobSocket, { id: "bob", token: "t", key: "peerjs" }, ownerOf(2))).not.toBeNull();
  bobSocket.sent = [];
  engineA.frame(alice, { type: "OFFER", dst: "bob", payload: "before" });
  await until(() => bobSocket.sent.length === 1, "a frame before the outage");

  await server.stop();
  const late = new FakeSocket();
  const failed = await Promise.resolve(engineA.connect(late, { id: "carol", token: "t", key: "peerjs" }, ownerOf(3))).then(
    () => null,
    (error: unknown) => error,
  );
  expect(failed).toBeInstanceOf(Error);
  expect(late.sent).toEqual([]);
  engineA.frame(alice, { type: "OFFER", dst: "bob", payload: "during" }); // lost, or delivered later: never a crash

  await server.start();
  // Redis came back empty: B writes back that it holds bob, and A's frames reach bob again.
  let n = 0;
  await until(async () => {
    engineA.frame(alice, { type: "CANDIDATE", dst: "bob", payload: `after ${n++}` });
    await Bun.sleep(50);
    return bobSocket.sent.some((m) => JSON.stringify(m).includes("after"));
  }, "frames after Redis came back", 20_000);
  const thief = new FakeSocket();
  expect(await engineA.connect(thief, { id: "bob", token: "other", key: "peerjs" }, ownerOf(4))).toBeNull();
  expect(thief.sent).toEqual([{ type: "ID-TAKEN", payload: { msg: "ID is taken" } }]);
  // And a new peer claims its id again.
  const carol = new FakeSocket();
  expect(await engineA.connect(carol, { id: "carol", token: "t", key: "peerjs" }, ownerOf(3))).not.toBeNull();
  expect(carol.sent).toEqual([{ type: "OPEN" }]);
}, 60_000);
