// Calls in progress survive a Redis that restarts empty (issue 23): each instance keeps a copy of
// the calls one of whose tabs it holds and writes them back when its calls heartbeat finds Redis's
// epoch changed. Two whole apps over a throwaway redis-server (killed with -9 and started again
// empty on the same port; the machine's Redis is never stopped) and one storage.
import { afterEach, expect, test } from "bun:test";
import type { Call } from "../../src/calls/registry.ts";
import { redisCalls } from "../../src/cluster/calls-redis.ts";
import { makeTestApp, registerUser, type TestApp } from "../support/app.ts";
import { throwawayRedisPerTest } from "../support/cluster.ts";
import { until } from "../support/until.ts";
import { connect, DEFAULT_WAIT_MS, type TestSocket } from "../support/ws.ts";

const apps: TestApp[] = [];
const open: TestSocket[] = [];

afterEach(async () => {
  for (const socket of open.splice(0)) socket.close();
  for (const app of apps.splice(0).reverse()) await app.close().catch(() => {});
});
const redis = throwawayRedisPerTest();

/** Two instances' call ports over a throwaway redis-server the test may restart (no sockets, no presence). */
async function twoCallPorts() {
  const { server, engine } = await redis.start();
  const [pa, pb] = [engine.instance(), engine.instance()];
  await Promise.all([pa.ready(), pb.ready()]);
  const deps = { presentHere: () => false, socketsOf: () => [], shownRow: () => false };
  return [redisCalls(pa.redis!, pa.bus, deps), redisCalls(pb.redis!, pb.bus, deps), pa, server] as const;
}

/** Answers what a step answers, or false while Redis is away (the step throws 503 then). */
const settledOr = async <T>(step: () => T | Promise<T>, fallback: T): Promise<T> => {
  try {
    return await step();
  } catch {
    return fallback;
  }
};

test("an answered call across two instances is written back after Redis restarts empty: busy again, and a hang-up reaches the other side", async () => {
  const { server, engine } = await redis.start();
  const env = { PRESENCE_GRACE_SECONDS: "0", SIGNUP_RATE_LIMIT: "1000" };
  const a = makeTestApp(env, { ports: engine.instance() });
  const b = makeTestApp(env, { ports: engine.instance(), dataDir: a.dataDir });
  apps.push(a, b);
  await Promise.all([a.ctx.ports.ready(), b.ctx.ports.ready(), a.ready, b.ready]);
  const [urlA, urlB] = [a.listen().wsUrl, b.listen().wsUrl];

  const caller = await registerUser(a);
  const callee = await registerUser(b);
  const third = await registerUser(a);
  const c = await connect(urlA, caller.token);
  const r = await connect(urlB, callee.token);
  const t = await connect(urlA, third.token);
  open.push(c, r, t);
  await c.ask("send_message", { receiverId: callee.user.id, content: "may I call?", messageType: "text" });
  await t.ask("send_message", { receiverId: callee.user.id, content: "me too", messageType: "text" });
  await until(() => a.ctx.hub.isPresent(callee.user.id) && b.ctx.contacts.talked(callee.user.id, caller.user.id), "the callee present and the conversation known");

  expect((await c.ask("call_user", { receiverId: callee.user.id, callerPeerId: "peer-c" })).data).toEqual({ status: "ringing" });
  await r.next("incoming_call");
  await r.ask("answer_call", { callerId: caller.user.id, answererPeerId: "peer-r" });
  await c.next("call_answered");
  // The caller's instance heard the answer (its copy says answered: nothing rings out later).
  await until(() => a.ctx.calls.isBusy(caller.user.id) as Promise<boolean>, "the call registered");

  await server.stop();
  await server.start();
  // Each instance's heartbeat finds Redis empty and writes back its side of the call. The first
  // write-back already makes both people busy; the call is whole once the second has written its tab.
  const bothSides = async () => {
    const known = await settledOr(() => a.ctx.calls.of(callee.user.id), null);
    return known?.callerInstance && known.receiverInstance ? known : null;
  };
  await until(async () => (await bothSides()) !== null, "the call known to Redis again, with both sides' tabs", 20_000, 100);
  expect(await b.ctx.calls.isBusy(callee.user.id)).toBe(true);
  expect(await a.ctx.calls.isBusy(caller.user.id)).toBe(true);
  const call = (await bothSides()) as Call;
  expect({ caller: call.callerId, callee: call.receiverId, answered: call.answered }).toEqual({ caller: caller.user.id, callee: callee.user.id, answered: true });
  expect(call.callerInstance).toBe(a.ctx.hub.instanceId);
  expect(call.receiverInstance).toBe(b.ctx.hub.instanceId);

  // Still one call per user: a third person calling the callee hears busy.
  await until(() => a.ctx.hub.isPresent(callee.user.id), "presence written back too");
  expect((await t.ask("call_user", { receiverId: callee.user.id, callerPeerId: "peer-t" })).data).toEqual({ status: "busy" });

  // The hang-up on A reaches the callee on B.
  expect((await c.ask("end_call", { receiverId: callee.user.id })).data).toEqual({ ended: true });
  await r.next("call_ended", DEFAULT_WAIT_MS);
  expect(await b.ctx.calls.isBusy(callee.user.id)).toBe(false);
}, 60_000);

test("a call still ringing when Redis restarts empty rings out after it, once, and the ids of new calls do not meet it", async () => {
  const [x, y, , server] = await twoCallPorts();
  const rungOut: number[] = [];
  x.onRingOut((call) => rungOut.push(call.callerId));
  y.onRingOut((call) => rungOut.push(call.callerId));
  const ringing: Call = { callerId: 1, receiverId: 2, callerSocketId: "tab-1", receiverSocketId: null, answered: false, callerPeerId: "p" };
  expect(await x.start(ringing, 2_500)).toBe(true);
  expect(x.copied.copies).toBe(1);

  await server.stop();
  await server.start();
  await until(async () => await settledOr(() => y.isBusy(2), false), "the ringing call written back", 20_000, 50);
  // A new call gets an id of the new epoch, never the written-back one's.
  const next: Call = { callerId: 3, receiverId: 4, callerSocketId: "tab-3", receiverSocketId: null, answered: false, callerPeerId: "p" };
  expect(await y.start(next, 60_000)).toBe(true);
  expect(next.id).not.toBe(ringing.id);

  await until(() => rungOut.length > 0, "rung out", 20_000, 20);
  expect(rungOut).toEqual([1]);
  expect(await x.isBusy(1)).toBe(false);
  expect(await x.isBusy(2)).toBe(false);
  expect(x.copied.copies).toBe(0);
  expect((await y.endWith(4, 3))?.callerId).toBe(3);
}, 60_000);

test("a hang-up or a tab closing while Redis is away ends the call once it is back empty: both sides are told, once", async () => {
  const [x, y, , server] = await twoCallPorts();
  const lost: string[] = [];
  for (const port of [x, y]) port.onLost((call) => lost.push(`${call.callerId}-${call.receiverId}`));
  const answered = async (callerId: number, receiverId: number) => {
    const placed: Call = { callerId, receiverId, callerSocketId: `tab-${callerId}`, receiverSocketId: null, answered: false, callerPeerId: "p" };
    expect(await x.start(placed, 60_000)).toBe(true);
    expect((await y.answer(callerId, receiverId, `tab-${receiverId}`))?.answered).toBe(true);
  };
  await answered(1, 2);
  await answered(3, 4);

  // Restarted empty: the hang-up of 1 (on x) and the closing of 4's tab (on y) fail meanwhile.
  await server.stop();
  const failed = async (step: () => unknown) => settledOr(async () => (await step(), false), true);
  expect(await failed(() => x.endWith(1, 2))).toBe(true);
  expect(await failed(() => y.socketClosed(4, "tab-4", true, () => true))).toBe(true);
  await server.start();
  await until(() => lost.length >= 2, "both calls ended once Redis is back", 20_000, 20);
  expect(lost.sort()).toEqual(["1-2", "3-4"]);
  for (const user of [1, 2, 3, 4]) await until(async () => !(await settledOr(() => x.isBusy(user), true)), `user ${user} free`, 10_000, 20);
  await until(() => x.copied.copies + y.copied.copies === 0, "no copy left");
  expect(lost).toHaveLength(2);
}, 60_000);

test("a call that ended while an instance's subscriber was away is forgotten there once it is back, not kept to be written back", async () => {
  const [x, y, pa] = await twoCallPorts();
  const placed: Call = { callerId: 1, receiverId: 2, callerSocketId: "tab-1", receiverSocketId: null, answered: false, callerPeerId: "p" };
  expect(await x.start(placed, 60_000)).toBe(true);
  expect((await y.answer(1, 2, "tab-2"))?.answered).toBe(true);
  expect(x.copied.copies).toBe(1);

  // x's subscriber goes away (as it does for a moment when Redis or the network blinks): the end
  // of the call, published on \`cev\`, never reaches x.
  const sub = pa.redis!.sub;
  sub.disconnect();
  await until(() => sub.status === "end", "x's subscriber closed");
  expect((await y.endWith(2, 1))?.callerId).toBe(1);
  expect(y.copied.copies).toBe(0);
  expect(x.copied.copies).toBe(1);

  await sub.connect();
  await until(() => x.copied.copies === 0, "x forgetting the call that ended");
  expect(x.kept.tabs).toBe(0);
  expect(await x.isBusy(1)).toBe(false);
}, 60_000);
