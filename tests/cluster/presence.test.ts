// The presence port's contract (src/cluster/ports.ts), against both engines: a user is announced
// once however many instances hold their sockets, goes offline a grace after the last present
// socket anywhere, and a dead instance's users go offline by themselves once its heartbeat stops.
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { Ports, PresencePort } from "../../src/cluster/ports.ts";
import { enginePerTest, engines, redisEngine, REDIS_TEST_URL } from "../support/cluster.ts";
import { spawnReady } from "../support/children.ts";
import { until } from "../support/until.ts";

type Change = [number, boolean];

describe.each(engines)("presence (%s)", (_name, make) => {
  const cluster = enginePerTest(make);

  /** An instance's presence, with every change it announced and how often its count moved. */
  function watch(ports: Ports, graceMs: number) {
    const told: Change[] = [];
    let moves = 0;
    const presence: PresencePort = ports.presence(graceMs, (userId, online) => void told.push([userId, online]), () => moves++);
    return { presence, told, moves: () => moves };
  }

  async function two(graceMs: number) {
    const [a, b] = await cluster.two();
    const pa = watch(a, graceMs);
    const pb = a === b ? pa : watch(b, graceMs);
    return { a, b, pa, pb, all: () => (pa === pb ? pa.told : [...pa.told, ...pb.told]) };
  }

  test("a user present on two instances is announced online once, and offline once after the last one leaves", async () => {
    const { a, b, pa, pb, all } = await two(0);
    pa.presence.update(1, true);
    pb.presence.update(1, true);
    await until(() => pa.presence.isAnnounced(1) && pb.presence.isAnnounced(1), "user 1 online on both");
    await a.settled();
    await b.settled();
    expect(all()).toEqual([[1, true]]);
    pa.presence.update(1, false);
    await a.settled();
    // b still holds a present socket (with one process: the same user's presence, now gone).
    if (a !== b) {
      expect(all()).toEqual([[1, true]]);
      pb.presence.update(1, false);
    }
    await until(() => !pa.presence.isAnnounced(1) && !pb.presence.isAnnounced(1), "user 1 offline on both");
    expect(all()).toEqual([
      [1, true],
      [1, false],
    ]);
    expect(pa.presence.announcedCount).toBe(0);
    expect(pb.presence.announcedCount).toBe(0);
  });

  test("leaving one instance and coming back on another within the grace announces nothing", async () => {
    const { a, b, pa, pb, all } = await two(400);
    pa.presence.update(2, true);
    await until(() => pb.presence.isAnnounced(2), "user 2 online everywhere");
    pa.presence.update(2, false);
    pb.presence.update(2, true);
    await a.settled();
    await b.settled();
    // A marker: user 99 leaves after user 2 did, with the same grace, so once 99 is announced
    // offline, an offline for 2 would have been too.
    pa.presence.update(99, true);
    await until(() => pb.presence.isAnnounced(99), "user 99 online everywhere");
    pa.presence.update(99, false);
    await until(() => all().some(([user, online]) => user === 99 && !online), "user 99 offline after the grace", 5000);
    expect(all().filter(([user]) => user === 2)).toEqual([[2, true]]);
    pb.presence.update(2, false);
    await until(() => all().some(([user, online]) => user === 2 && !online), "the offline after the grace", 5000);
    expect(all().filter(([user]) => user === 2)).toEqual([
      [2, true],
      [2, false],
    ]);
  });

  test("a ban takes a user offline at once, wherever their sockets are", async () => {
    const { pa, pb, all } = await two(60_000);
    pa.presence.update(3, true);
    await until(() => pb.presence.isAnnounced(3), "user 3 online everywhere");
    pb.presence.offlineNow(3);
    await until(() => !pa.presence.isAnnounced(3), "user 3 offline everywhere");
    expect(all()).toEqual([
      [3, true],
      [3, false],
    ]);
  });

  test("the count moves on every instance, not only the one that announced", async () => {
    const { a, b, pa, pb } = await two(0);
    const before = pb.moves();
    pa.presence.update(4, true);
    await until(() => pb.presence.announcedCount === 1 && pb.moves() > before, "the count moving on the other instance");
    if (a !== b) expect(pa.presence.announcedCount).toBe(1);
  });
});

describe("presence when an instance dies (redis)", () => {
  const cluster = enginePerTest(redisEngine);

  test("kill -9 an instance: its users go offline by themselves, announced once by a live one, and its socket slots come free", async () => {
    const live = (await cluster.instances(1))[0]!;
    const told: Change[] = [];
    const presence = live.presence(0, (userId, online) => void told.push([userId, online]), () => {});
    presence.update(21, true); // also here: must stay online
    // The prefix is only known inside the engine: read it back from a key the live instance wrote.
    await live.settled();
    const prefix = await prefixOf(live);
    const child = await spawnReady(join(import.meta.dir, "fixtures/instance.ts"), { REDIS_URL: REDIS_TEST_URL, PREFIX: prefix, USERS: "21,22,23" });
    await until(() => presence.isAnnounced(22) && presence.isAnnounced(23), "the other instance's users online here");
    const slots = live.limits.slots("sockets");
    expect(await slots.held("user:22")).toBe(1);
    child.kill(9);
    await child.exited;
    await until(() => !presence.isAnnounced(22) && !presence.isAnnounced(23), "the dead instance's users offline", 5000);
    expect(presence.isAnnounced(21)).toBe(true);
    expect(told.filter(([, online]) => !online).sort()).toEqual([
      [22, false],
      [23, false],
    ]);
    expect(await slots.held("user:22")).toBe(0);
    // The only slot of 21 was the dead instance's: the live one took none.
    expect(await slots.held("user:21")).toBe(0);
  }, 30_000);
});

describe("an instance that stalls past the TTL (redis)", () => {
  const cluster = enginePerTest(redisEngine);

  test("reaped while its event loop was blocked, it writes back what it holds at its next beat: frames reach it again", async () => {
    const [a, b] = await cluster.two();
    const heard: string[] = [];
    b.fanOut.attach({ toUser: (_u, text) => void heard.push(text), toSocket() {}, toAll() {}, toWatchers() {} });
    const presence = b.presence(0, () => {}, () => {});
    b.fanOut.holding(31, true);
    presence.update(31, true);
    await b.settled();
    // Both instances stall 2 s (one process). a, made first, has the earlier timer and beats first,
    // so it finds b silent past the TTL and reaps it (what b held is let go).
    const until2s = Date.now() + 2000;
    while (Date.now() < until2s) {}
    let n = 0;
    await until(() => {
      a.fanOut.toUser(31, `after ${n++}`);
      return heard.length > 0;
    }, "frames reaching the instance again after it was reaped");
    await until(() => presence.isAnnounced(31), "user 31 online again");
  }, 30_000);
});

/** The key prefix an instance writes under (its heartbeat set ends in "inst"). */
async function prefixOf(ports: Ports): Promise<string> {
  const Redis = (await import("ioredis")).default;
  const client = new Redis(REDIS_TEST_URL);
  try {
    const id = ports.fanOut.instanceId;
    let cursor = "0";
    do {
      const [next, keys] = await client.scan(cursor, "MATCH", "test:*:inst", "COUNT", 1000);
      cursor = next;
      for (const key of keys) if ((await client.zscore(key, id)) !== null) return key.slice(0, -"inst".length);
    } while (cursor !== "0");
    throw new Error("no heartbeat key for this instance");
  } finally {
    client.disconnect();
  }
}
