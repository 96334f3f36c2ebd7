// The calls port's contract (src/calls/port.ts) on both engines: the one-process registry and
// Redis (instances of one prefix; with local, the one process plays every instance). Then what only
// several instances can show: the ring time kept when the instance that started the call is gone,
// a dead instance's calls ended once by a live one, and what each instance keeps staying bounded.
import { describe, expect, test } from "bun:test";
import { LocalCalls } from "../../src/calls/local.ts";
import type { CallsPort } from "../../src/calls/port.ts";
import type { Call } from "../../src/calls/registry.ts";
import { redisCalls, type RedisCallsPort } from "../../src/cluster/calls-redis.ts";
import type { Ports } from "../../src/cluster/ports.ts";
import { join } from "node:path";
import { enginePerTest, engines, REDIS_TEST_URL, redisEngine, type Engine } from "../support/cluster.ts";
import { spawnReady } from "../support/children.ts";
import { until } from "../support/until.ts";

const nobody = { present: () => false, shown: () => false, otherTabs: () => {} };

/** The Redis calls port of an instance that holds no sockets. */
const redisCallsOf = (ports: Ports): RedisCallsPort => redisCalls(ports.redis!, ports.bus, { presentHere: () => false, socketsOf: () => [], shownRow: async () => false });

function callsOn(engine: Engine, ports: Ports, local: { port: LocalCalls | null }): CallsPort {
  if (engine.name === "local") return (local.port ??= new LocalCalls(nobody));
  return redisCallsOf(ports);
}

let nextUser = 1000;
const call = (callerId: number, receiverId: number, socket = `s${callerId}`): Call => ({ callerId, receiverId, callerSocketId: socket, receiverSocketId: null, answered: false, callerPeerId: `peer-${callerId}` });

describe.each(engines)("the calls port (%s)", (_name, make) => {
  const cluster = enginePerTest(make);

  async function two(): Promise<[CallsPort, CallsPort]> {
    const local = { port: null as LocalCalls | null };
    const [pa, pb] = await cluster.two();
    return [callsOn(cluster.engine, pa, local), callsOn(cluster.engine, pb, local)];
  }

  test("one call per user: a second call involving the caller or the callee is refused, from either instance", async () => {
    const [x, y] = await two();
    const [u1, u2, u3] = [nextUser++, nextUser++, nextUser++];
    expect(await x.start(call(u1, u2), 60_000)).toBe(true);
    expect(await y.start(call(u3, u2), 60_000)).toBe(false);
    expect(await y.start(call(u3, u1), 60_000)).toBe(false);
    expect(await y.start(call(u2, u3), 60_000)).toBe(false);
    expect(await y.isBusy(u1)).toBe(true);
    expect(await y.isBusy(u3)).toBe(false);
    expect((await y.of(u2))?.callerId).toBe(u1);
    expect(await y.endWith(u2, u3)).toBeUndefined();
    expect((await y.endWith(u2, u1))?.receiverId).toBe(u2);
    expect(await x.isBusy(u1)).toBe(false);
    expect(await x.endWith(u1)).toBeUndefined();
  });

  test("starts at once from two instances to one callee: exactly one is registered", async () => {
    const [x, y] = await two();
    const callee = nextUser++;
    const callers = Array.from({ length: 20 }, () => nextUser++);
    const results = await Promise.all(callers.map((id, i) => (i % 2 ? x : y).start(call(id, callee), 60_000)));
    expect(results.filter(Boolean)).toHaveLength(1);
    const winner = callers[results.indexOf(true)]!;
    expect((await x.of(callee))?.callerId).toBe(winner);
    await x.endWith(callee);
  });

  test("answers at once from two instances: exactly one gets the call; a decline after it finds nothing ringing", async () => {
    const [x, y] = await two();
    const [u1, u2] = [nextUser++, nextUser++];
    const ringEnds: number[] = [];
    x.onRingEnd((c) => ringEnds.push(c.callerId));
    if (y !== x) y.onRingEnd((c) => ringEnds.push(c.callerId));
    await x.start(call(u1, u2), 60_000);
    const answers = await Promise.all([x.answer(u1, u2, "tab-x"), y.answer(u1, u2, "tab-y"), x.answer(u1, u2, "tab-x2"), y.answer(u1, u2, "tab-y2")]);
    expect(answers.filter((c) => c !== undefined)).toHaveLength(1);
    expect(await y.decline(u1, u2)).toBeUndefined();
    expect(await x.ringing(u1, u2)).toBeUndefined();
    expect((await y.of(u1))?.answered).toBe(true);
    expect(ringEnds).toEqual([u1]);
    await y.endWith(u1, u2);
    expect(ringEnds).toEqual([u1]);
  });

  test("a call rings out once, at its ring time, on one instance; an answered or declined one never", async () => {
    const [x, y] = await two();
    const out: number[] = [];
    x.onRingOut((c) => out.push(c.callerId));
    if (y !== x) y.onRingOut((c) => out.push(c.callerId));
    const [u1, u2, u3, u4, u5, u6] = [nextUser++, nextUser++, nextUser++, nextUser++, nextUser++, nextUser++];
    const started = Date.now();
    await x.start(call(u1, u2), 300);
    await y.start(call(u3, u4), 300);
    await x.start(call(u5, u6), 300);
    await y.answer(u3, u4, "tab");
    await x.decline(u5, u6);
    await until(() => out.length > 0, "the ring-out");
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(await x.isBusy(u1)).toBe(false);
    await Bun.sleep(800);
    expect(out).toEqual([u1]);
    expect(await x.isBusy(u3)).toBe(true);
    await x.endWith(u3);
  });

  test("a closing tab ends the call it holds; the callee's last tab ends a ringing call only when told to", async () => {
    const [x, y] = await two();
    const [u1, u2, u3, u4] = [nextUser++, nextUser++, nextUser++, nextUser++];
    await x.start(call(u1, u2, "caller-tab"), 60_000);
    expect(await x.socketClosed(u1, "other-tab", false, () => true)).toBeUndefined();
    expect((await x.socketClosed(u1, "caller-tab", true, () => true))?.receiverId).toBe(u2);
    await x.start(call(u3, u4, "t3"), 60_000);
    expect(await y.socketClosed(u4, "callee-tab", true, () => false)).toBeUndefined();
    expect(await y.isBusy(u4)).toBe(true);
    expect((await y.socketClosed(u4, "callee-tab", true, (callerId) => callerId === u3))?.callerId).toBe(u3);
    expect(await x.isBusy(u3)).toBe(false);
  });

  test("a tab opened while a call rings by push is told of it, and the call is no longer silent", async () => {
    const [x, y] = await two();
    const [u1, u2] = [nextUser++, nextUser++];
    const placed = { ...call(u1, u2), silent: true };
    await x.start(placed, 60_000);
    expect(await y.tabOpened(u2)).toBeUndefined();
    x.rungByPush(placed);
    await until(async () => (await y.tabOpened(u2)) !== undefined, "the push ring seen");
    const seen = await y.of(u2);
    expect(seen).toMatchObject({ callerId: u1, pushed: true, silent: false, callerPeerId: `peer-${u1}` });
    await y.endWith(u2);
  });

  test("a tab opened while a call placed with no tab of the callee open rings, and one silent for Video Roulette never does", async () => {
    const [x, y] = await two();
    const [u1, u2, u3, u4] = [nextUser++, nextUser++, nextUser++, nextUser++];
    await x.start({ ...call(u1, u2), silent: true, away: true }, 60_000);
    expect(await y.tabOpened(u2)).toMatchObject({ callerId: u1, receiverId: u2, silent: false, callerPeerId: `peer-${u1}` });
    expect(await x.of(u2)).toMatchObject({ silent: false, away: true });
    // A second tab rings too, until it is answered.
    expect((await x.tabOpened(u2))?.callerId).toBe(u1);
    await y.answer(u1, u2, "tab-2");
    expect(await x.tabOpened(u2)).toBeUndefined();
    await x.start({ ...call(u3, u4), silent: true }, 60_000);
    expect(await y.tabOpened(u4)).toBeUndefined();
    expect(await x.of(u4)).toMatchObject({ silent: true });
    await y.endWith(u2);
    await y.endWith(u4);
  });
});

describe("calls when an instance is gone (redis)", () => {
  const cluster = enginePerTest(redisEngine);

  async function instances(n: number): Promise<{ ports: Ports; calls: RedisCallsPort }[]> {
    return (await cluster.instances(n)).map((ports) => ({ ports, calls: redisCallsOf(ports) }));
  }

  /** As a kill -9 looks from Redis: no more heartbeats, no more commands. */
  const kill = (ports: Ports) => {
    ports.redis!.cmd.disconnect();
    ports.redis!.sub.disconnect();
  };

  test("the ring time holds when the instance that started the call is gone: a live one rings it out, once", async () => {
    const [x, y, z] = await instances(3);
    const out: string[] = [];
    y!.calls.onRingOut((c) => out.push(`y:${c.callerId}`));
    z!.calls.onRingOut((c) => out.push(`z:${c.callerId}`));
    const lost: number[] = [];
    y!.calls.onLost((c) => lost.push(c.callerId));
    z!.calls.onLost((c) => lost.push(c.callerId));
    const [u1, u2] = [nextUser++, nextUser++];
    await x!.calls.start(call(u1, u2), 400);
    kill(x!.ports);
    const started = Date.now();
    await until(() => out.length > 0, "the ring-out by a live instance");
    // Rung out (not lost): the ring time came before the TTL (1.5 s) declared x dead.
    expect(Date.now() - started).toBeLessThan(1500);
    await Bun.sleep(2000);
    expect(out).toHaveLength(1);
    expect(lost).toEqual([]);
    expect(await y!.calls.isBusy(u2)).toBe(false);
  }, 20_000);

  test("an answered call whose caller's instance dies ends once, on a live instance, within the TTL and a beat", async () => {
    const [x, y, z] = await instances(3);
    const lost: string[] = [];
    y!.calls.onLost((c) => lost.push(`y:${c.callerId}`));
    z!.calls.onLost((c) => lost.push(`z:${c.callerId}`));
    const [u1, u2] = [nextUser++, nextUser++];
    await x!.calls.start(call(u1, u2), 60_000);
    await y!.calls.answer(u1, u2, "tab");
    kill(x!.ports);
    const died = Date.now();
    await until(() => lost.length > 0, "the lost call ended", 10_000);
    // TTL 1.5 s here (tests/support/cluster.ts FAST) plus one beat; 5 s + 1 s with the defaults.
    expect(Date.now() - died).toBeLessThan(1500 + 1500);
    await Bun.sleep(700);
    expect(lost).toHaveLength(1);
    expect(await z!.calls.isBusy(u1)).toBe(false);
    expect(await z!.calls.isBusy(u2)).toBe(false);
    expect(y!.calls.kept).toEqual({ timers: 0, tabs: 0 });
  }, 20_000);

  test("kill -9 of the instance holding the caller's tab: the callee, who answered on a live instance, is freed once within the TTL and a beat", async () => {
    const [live, other] = await instances(2);
    const lost: number[] = [];
    live!.calls.onLost((c) => lost.push(c.receiverId));
    other!.calls.onLost((c) => lost.push(c.receiverId));
    const [caller, callee] = [nextUser++, nextUser++];
    const child = await spawnReady(join(import.meta.dir, "calls-instance.fixture.ts"), { REDIS_URL: REDIS_TEST_URL, PREFIX: live!.ports.redis!.prefix, CALLER: String(caller), CALLEE: String(callee) });
    try {
      expect((await live!.calls.answer(caller, callee, "callee-tab"))?.callerId).toBe(caller);
      child.kill(9);
      await child.exited;
      const died = Date.now();
      await until(() => lost.length > 0, "the call ended by a live instance", 10_000);
      expect(Date.now() - died).toBeLessThan(10_000);
      await Bun.sleep(700);
      expect(lost).toEqual([callee]);
      expect(await other!.calls.isBusy(callee)).toBe(false);
      expect(await other!.calls.isBusy(caller)).toBe(false);
      expect(live!.calls.kept.tabs).toBe(0);
    } finally {
      child.kill(9);
    }
  }, 30_000);

  test("what an instance keeps stays bounded: 300 calls from one tab, answered, declined or hung up elsewhere, leave one timer, one tab entry and no call key", async () => {
    const [x, y] = await instances(2);
    const caller = nextUser++;
    for (let i = 0; i < 300; i++) {
      const callee = nextUser++;
      // One socket placing call after call: each new call means the last one ended.
      expect(await x!.calls.start(call(caller, callee, "one-tab"), 60_000)).toBe(true);
      expect(x!.calls.kept).toEqual({ timers: 1, tabs: 1 });
      if (i % 3 === 0) await y!.calls.answer(caller, callee, `tab-${i}`);
      if (i % 3 === 1) await y!.calls.decline(caller, callee);
      else await y!.calls.endWith(callee, caller);
    }
    expect(y!.calls.kept).toEqual({ timers: 0, tabs: 0 });
    const { cmd, prefix } = x!.ports.redis!;
    let cursor = "0";
    const keys: string[] = [];
    do {
      const [next, found] = await cmd.scan(cursor, "MATCH", `${prefix}c*`, "COUNT", 1000);
      cursor = next;
      keys.push(...found);
    } while (cursor !== "0");
    // Only the counter of ids, x's index of its calls (empty sets are deleted by Redis) and the instance
    // list, beside the epoch once a heartbeat set it.
    expect(keys.map((k) => k.slice(prefix.length)).filter((k) => k !== "cepoch").sort()).toEqual(["cinst", "cseq"]);
    // The copies kept for a write-back after a Redis restart follow the endings heard from y.
    await until(() => x!.calls.copied.copies === 0 && y!.calls.copied.copies === 0, "no call copy left");
  }, 60_000);
});
