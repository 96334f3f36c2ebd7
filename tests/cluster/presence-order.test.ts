// Issue 23, a race found by tests/cluster/two-instances.test.ts (about 1 run in 9): an instance
// learns a presence change twice, from the answer to its own command and from the `all` channel,
// on two Redis connections read in no set order. When the answer to "Dave came online" was read
// after the channel had already brought a later "Dave offline" (a ban from another instance),
// applying the answer put Dave back online on that instance for good. Here the order is forced:
// instance X reaches Redis through a small TCP proxy that holds back what Redis answers on X's
// command connection (not on its subscriber) until the channel has brought both changes.
import { afterEach, expect, test } from "bun:test";
import { createServer, connect as tcpConnect, type Server, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import { redisEngine, REDIS_TEST_URL, type Engine } from "../support/cluster.ts";
import { until } from "../support/until.ts";

let engine: Engine | null = null;
let proxy: Server | null = null;
const sockets: Socket[] = [];

afterEach(async () => {
  await engine?.cleanup();
  for (const socket of sockets.splice(0)) socket.destroy();
  await new Promise<void>((resolve) => (proxy ? proxy.close(() => resolve()) : resolve()));
  engine = null;
  proxy = null;
});

/** A proxy to Redis that, while `hold` is set, keeps Redis's answers on command connections (not subscribers). */
async function holdingProxy(target: URL) {
  const state = { hold: false, held: [] as (() => void)[] };
  proxy = createServer((client) => {
    const server = tcpConnect(Number(target.port), target.hostname);
    sockets.push(client, server);
    let subscriber = false;
    client.on("data", (chunk) => {
      if (/subscribe/i.test(chunk.toString("latin1"))) subscriber = true;
      server.write(chunk);
    });
    server.on("data", (chunk) => {
      if (state.hold && !subscriber) state.held.push(() => client.write(chunk));
      else client.write(chunk);
    });
    client.on("error", () => server.destroy());
    server.on("error", () => client.destroy());
    client.on("close", () => server.destroy());
    server.on("close", () => client.destroy());
  });
  await new Promise<void>((resolve) => proxy!.listen(0, "127.0.0.1", resolve));
  const { port } = proxy.address() as AddressInfo;
  return {
    url: `redis://127.0.0.1:${port}`,
    hold: () => void (state.hold = true),
    /** Lets the held answers through, in the order Redis sent them. */
    release: () => {
      state.hold = false;
      for (const send of state.held.splice(0)) send();
    },
    heldCount: () => state.held.length,
  };
}

test("an instance's own 'came online' answer read after the channel brought a later 'offline' does not put the user back online", async () => {
  const gate = await holdingProxy(new URL(REDIS_TEST_URL));
  engine = redisEngine();
  const x = engine.instance({ url: gate.url });
  const y = engine.instance();
  await Promise.all([x.ready(), y.ready()]);
  const toldX: [number, boolean][] = [];
  const toldY: [number, boolean][] = [];
  const px = x.presence(0, (userId, online) => void toldX.push([userId, online]), () => {});
  const py = y.presence(0, (userId, online) => void toldY.push([userId, online]), () => {});

  gate.hold();
  px.update(7, true);
  // Redis ran X's presenceUp (both instances heard "online" on the channel), its answer is held.
  await until(() => px.isAnnounced(7) && py.isAnnounced(7), "user 7 online on both, by the channel");
  // A ban on Y: offline at once, heard by X on the channel while X's answer is still held.
  py.offlineNow(7);
  await until(() => !px.isAnnounced(7) && !py.isAnnounced(7), "user 7 offline on both, by the channel");
  expect(gate.heldCount()).toBeGreaterThan(0);
  gate.release();
  // Every answer X was owed has now been read (a PING answered after them).
  await x.settled();
  expect(toldX).toEqual([[7, true]]);
  expect(toldY).toEqual([[7, false]]);
  expect(px.isAnnounced(7)).toBe(false);
  expect(px.announcedCount).toBe(0);
  expect(py.isAnnounced(7)).toBe(false);
});
