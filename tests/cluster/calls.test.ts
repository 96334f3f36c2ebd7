// One-to-one calls across instances: two whole apps over one Redis (a fresh key prefix) and one
// storage (one SQLite file, or one PostgreSQL database on the PostgreSQL pass). A call from a user
// on instance A to one on B rings, is answered and ends; one call per user holds over both; two
// tabs of the callee answering at once on two instances get one winner; the ring time holds; a
// call whose other side's instance dies ends for the survivor within 10 s; and a call leaves
// nothing behind in Redis once it ends.
import { describe, expect, test } from "bun:test";
import { makeTestApp, registerUser, type TestApp } from "../support/app.ts";
import { twoInstancesForFile } from "../support/two-instances.ts";
import { settled, type TestSocket } from "../support/ws.ts";
import { until } from "../support/until.ts";
import type { RedisLink } from "../../src/cluster/ports.ts";

const ENV = { PRESENCE_GRACE_SECONDS: "0" };

const { engine, a, b, urlA, urlB, socket } = twoInstancesForFile(ENV);
const urls = new Map<TestApp, string>([
  [a, urlA],
  [b, urlB],
]);

const on = (app: TestApp, token: string): Promise<TestSocket> => socket(urls.get(app)!, token);

type Person = Awaited<ReturnType<typeof registerUser>>;

/**
 * Both instances have applied everything sent so far (the sockets held, presence in Redis): Redis
 * does not run two instances' commands in the order they were sent, so a call placed before the
 * callee's instance noted their socket would find them absent.
 */
async function applied(...apps: TestApp[]): Promise<void> {
  await Promise.all((apps.length ? apps : [a, b]).map((app) => app.ctx.ports.settled()));
}

/** `caller` wrote to `callee` (a conversation: a call knows their presence at once), seen by every instance. */
async function talked(caller: Person, callee: Person, socket: TestSocket, apps = [a, b]): Promise<void> {
  await socket.ask("send_message", { receiverId: callee.user.id, content: "may I call?", messageType: "text" });
  await until(() => apps.every((app) => app.ctx.contacts.talked(callee.user.id, caller.user.id)), "the conversation known on every instance");
}

/** A caller with a tab on `from` and a callee with a tab on `to`, in a conversation, both present everywhere. */
async function pair(from: TestApp = a, to: TestApp = b, apps = [a, b]) {
  const caller = await registerUser(from, { name: "Caller Across" });
  const callee = await registerUser(to, { name: "Callee Across" });
  const c = await on(from, caller.token);
  const r = await on(to, callee.token);
  await settled(c, r);
  await talked(caller, callee, c, apps);
  await applied(...apps);
  return { caller, callee, c, r };
}

/** pair(), and a second tab of the callee on the caller's instance (`r2`), applied everywhere. */
async function pairWithSecondTab(from: TestApp = a, to: TestApp = b, apps = [a, b]) {
  const made = await pair(from, to, apps);
  const r2 = await on(from, made.callee.token);
  await settled(r2);
  await applied(...apps);
  return { ...made, r2 };
}

const busyOn = async (app: TestApp, userId: number) => await app.ctx.calls.isBusy(userId);

/** Keys the calls port keeps in Redis under this test's prefix (calls-lua.ts): none once every call ended. */
async function callKeys(link: RedisLink): Promise<{ calls: number; users: number; ringing: number }> {
  const count = async (pattern: string) => {
    let cursor = "0";
    let n = 0;
    do {
      const [next, keys] = await link.cmd.scan(cursor, "MATCH", `${link.prefix}${pattern}`, "COUNT", 1000);
      cursor = next;
      n += keys.length;
    } while (cursor !== "0");
    return n;
  };
  return { calls: await count("c:*"), users: await count("cu:*"), ringing: await link.cmd.zcard(`${link.prefix}cring`) };
}

describe("calls across two instances over one Redis", () => {
  test("a call from a user on A to one on B rings, is answered (the callee's tab on A stops ringing), and ends for both", async () => {
    const { caller, callee, c, r, r2 } = await pairWithSecondTab();
    expect((await c.ask("call_user", { receiverId: callee.user.id, callerPeerId: "peer-caller" })).data).toEqual({ status: "ringing" });
    expect((await r.next("incoming_call")).data).toEqual({ callerId: caller.user.id, callerName: "Caller Across", callerPeerId: "peer-caller" });
    await r2.next("incoming_call");
    expect(await busyOn(a, callee.user.id)).toBe(true);
    expect(await busyOn(b, caller.user.id)).toBe(true);
    r.send("answer_call", { callerId: caller.user.id, answererPeerId: "peer-callee" });
    expect((await c.next("call_answered")).data).toEqual({ answererPeerId: "peer-callee" });
    await r2.next("call_ended");
    expect((await r.ask("end_call", { receiverId: caller.user.id })).data).toEqual({ ended: true });
    await c.next("call_ended");
    expect(await busyOn(a, caller.user.id)).toBe(false);
    expect(await busyOn(b, callee.user.id)).toBe(false);
    // The caller hanging up too, a moment later, finds nothing to end and tells nobody.
    expect((await c.ask("end_call", { receiverId: callee.user.id })).data).toEqual({ ended: false });
    expect(await r.silent("call_ended", c)).toBe(true);
  });

  test("a decline on B reaches the caller on A, and the pair can call again", async () => {
    const { caller, callee, c, r } = await pair();
    await c.ask("call_user", { receiverId: callee.user.id, callerPeerId: "p1" });
    await r.next("incoming_call");
    r.send("reject_call", { callerId: caller.user.id });
    expect((await c.next("call_rejected")).data).toEqual({ reason: "declined" });
    expect((await c.ask("call_user", { receiverId: callee.user.id, callerPeerId: "p2" })).data).toEqual({ status: "ringing" });
    await r.next("incoming_call");
    c.send("end_call", { receiverId: callee.user.id });
    await r.next("call_ended");
  });

  test("busy across instances: a caller or a callee in a call on the other instance is busy", async () => {
    const { caller, callee, c, r } = await pair();
    await c.ask("call_user", { receiverId: callee.user.id, callerPeerId: "p1" });
    await r.next("incoming_call");
    // Someone on B calls the caller (on A); someone on A calls the callee (on B).
    const x = await registerUser(b);
    const xb = await on(b, x.token);
    await talked(x, caller, xb);
    expect((await xb.ask("call_user", { receiverId: caller.user.id, callerPeerId: "px" })).data).toEqual({ status: "busy" });
    expect((await xb.next("call_rejected")).data).toEqual({ reason: "busy" });
    const y = await registerUser(a);
    const ya = await on(a, y.token);
    await talked(y, callee, ya);
    expect((await ya.ask("call_user", { receiverId: callee.user.id, callerPeerId: "py" })).data).toEqual({ status: "busy" });
    // And the caller, already in a call, cannot place another.
    expect((await c.ask("call_user", { receiverId: x.user.id, callerPeerId: "p2" })).data).toEqual({ status: "busy" });
    c.send("end_call", { receiverId: callee.user.id });
    await r.next("call_ended");
  });

  test("two people on two instances calling the same person at once: exactly one rings, the other is busy", async () => {
    const callee = await registerUser(a);
    const r = await on(a, callee.token);
    const x = await registerUser(a);
    const y = await registerUser(b);
    const xa = await on(a, x.token);
    const yb = await on(b, y.token);
    await talked(x, callee, xa);
    await talked(y, callee, yb);
    await settled(r);
    await applied();
    const [one, two] = await Promise.all([
      xa.ask("call_user", { receiverId: callee.user.id, callerPeerId: "px" }),
      yb.ask("call_user", { receiverId: callee.user.id, callerPeerId: "py" }),
    ]);
    expect([one.data.status, two.data.status].sort()).toEqual(["busy", "ringing"]);
    const ring = await r.next("incoming_call");
    expect(ring.data.callerId).toBe(one.data.status === "ringing" ? x.user.id : y.user.id);
    expect(await r.silent("incoming_call", xa, yb)).toBe(true);
    r.send("reject_call", { callerId: ring.data.callerId });
    await (one.data.status === "ringing" ? xa : yb).next("call_rejected");
  });

  test("two tabs of the callee on two instances answering at once: one wins, the other is told the call was answered elsewhere", async () => {
    const { caller, callee, c, r, r2: rA } = await pairWithSecondTab();
    await c.ask("call_user", { receiverId: callee.user.id, callerPeerId: "p1" });
    await r.next("incoming_call");
    await rA.next("incoming_call");
    const [onB, onA] = await Promise.all([
      r.ask("answer_call", { callerId: caller.user.id, answererPeerId: "tab-b" }),
      rA.ask("answer_call", { callerId: caller.user.id, answererPeerId: "tab-a" }),
    ]);
    const won = [onB, onA].filter((ack) => !ack.error);
    const lost = [onB, onA].filter((ack) => ack.error);
    expect(won).toHaveLength(1);
    expect(lost.map((ack) => ack.error?.code)).toEqual(["not_found"]);
    const [winner, loser, peer] = onB.error ? [rA, r, "tab-a"] : [r, rA, "tab-b"];
    expect((await c.next("call_answered")).data).toEqual({ answererPeerId: peer });
    await loser.next("call_ended");
    expect(await c.silent("call_answered", r, rA)).toBe(true);
    expect(await winner.silent("call_ended", c)).toBe(true);
    // The winning tab holds the call: closing it ends the call for the caller on the other instance.
    winner.close();
    await c.next("call_ended");
    await until(async () => !(await busyOn(a, caller.user.id)), "the caller free again");
  });

  test("the caller's tab closing on A ends a ringing call for the callee on B", async () => {
    const { caller, callee, c, r } = await pair();
    await c.ask("call_user", { receiverId: callee.user.id, callerPeerId: "p1" });
    await r.next("incoming_call");
    c.close();
    await r.next("call_ended");
    await until(async () => !(await busyOn(b, callee.user.id)) && !(await busyOn(b, caller.user.id)), "both free");
  });

  test("the callee's last tab anywhere closing while it rings ends it for a caller in a conversation; a tab left on the other instance keeps it ringing", async () => {
    const { caller, callee, c, r, r2: rA } = await pairWithSecondTab();
    await c.ask("call_user", { receiverId: callee.user.id, callerPeerId: "p1" });
    await r.next("incoming_call");
    await rA.next("incoming_call");
    r.close(); // the last tab on B, but not the last anywhere
    await until(() => b.ctx.hub.socketCount(callee.user.id) === 0, "B letting go of the callee");
    await applied();
    expect(await busyOn(a, caller.user.id)).toBe(true);
    expect(await c.silent("call_ended")).toBe(true);
    rA.close(); // now the last anywhere
    await c.next("call_ended");
  });

  test("a ban on A ends the call of a user whose tabs are on B, and the caller on A hears it", async () => {
    const { caller, callee, c, r } = await pair();
    await c.ask("call_user", { receiverId: callee.user.id, callerPeerId: "p1" });
    await r.next("incoming_call");
    r.send("answer_call", { callerId: caller.user.id, answererPeerId: "p2" });
    await c.next("call_answered");
    a.ctx.hub.expel(callee.user.id, 4403, "Banned");
    await c.next("call_ended");
    expect(await busyOn(a, caller.user.id)).toBe(false);
  });

  test("someone without a conversation is reached across instances as strangers see them (the batched presence, shared over the bus)", async () => {
    const caller = await registerUser(a);
    const callee = await registerUser(b, { name: "Unknown On B" });
    const c = await on(a, caller.token);
    const r = await on(b, callee.token);
    await settled(c, r);
    await applied();
    // B announced the callee and published its batch; A's copy of who is shown heard it over the bus.
    await until(() => a.ctx.hub.isShown(callee.user.id), "the callee shown online on A");
    expect(await a.ctx.calls.shown(callee.user.id)).toBe(true);
    expect((await c.ask("call_user", { receiverId: callee.user.id, callerPeerId: "p1" })).data).toEqual({ status: "ringing" });
    await r.next("incoming_call");
    c.send("end_call", { receiverId: callee.user.id });
    await r.next("call_ended");
    // Once the callee has left (and the row says so), the stranger hears "offline", not a ring.
    r.close();
    await until(async () => !(await a.ctx.calls.shown(callee.user.id)), "the callee shown offline");
    expect((await c.ask("call_user", { receiverId: callee.user.id, callerPeerId: "p2" })).data).toEqual({ status: "offline" });
  });

  test("a flood of call_user from one tab is refused past the socket's event budget, and Redis still holds one call", async () => {
    const { caller, callee, c, r } = await pair();
    await c.ask("call_user", { receiverId: callee.user.id, callerPeerId: "p1" });
    await r.next("incoming_call");
    const answers = await Promise.all(Array.from({ length: 80 }, () => c.ask("call_user", { receiverId: callee.user.id, callerPeerId: "again" })));
    const codes = answers.map((ack) => ack.error?.code ?? ack.data.status);
    expect(codes.filter((code) => code === "rate_limited").length).toBeGreaterThan(0);
    expect(codes.every((code) => code === "busy" || code === "rate_limited")).toBe(true);
    expect((await callKeys(a.ctx.ports.redis!)).calls).toBe(1);
    // The hang-up waits for the budget to refill (20 events a second by default).
    await until(async () => !(await c.ask("end_call", { receiverId: callee.user.id })).error, "the hang-up taken", 10_000, 200);
    await r.next("call_ended");
    expect(await busyOn(b, caller.user.id)).toBe(false);
  });

  test("every key of a call is gone once it ends", async () => {
    const link = a.ctx.ports.redis!;
    await until(async () => {
      const left = await callKeys(link);
      return left.calls === 0 && left.users === 0 && left.ringing === 0;
    }, "no call left in Redis");
  });
});

describe("the ring time across instances", () => {
  // A storage of their own, so a Redis prefix of their own too: user ids of two databases must not
  // meet on one bus (the contacts copy would take one database's pairs for the other's).
  const ringing = twoInstancesForFile({ ...ENV, CALL_RING_SECONDS: "1" });
  const { a: c, b: d } = ringing;
  urls.set(c, ringing.urlA);
  urls.set(d, ringing.urlB);

  test("a call from C to D nobody answers rings out: the caller hears no_answer, the callee's tabs on both instances call_ended", async () => {
    const { caller, callee, c: cs, r, r2: rC } = await pairWithSecondTab(c, d, [c, d]);
    const started = Date.now();
    await cs.ask("call_user", { receiverId: callee.user.id, callerPeerId: "p1" });
    await r.next("incoming_call");
    await rC.next("incoming_call");
    expect((await cs.next("call_rejected")).data).toEqual({ reason: "no_answer" });
    expect(Date.now() - started).toBeGreaterThan(700);
    await r.next("call_ended");
    await rC.next("call_ended");
    expect(await busyOn(d, caller.user.id)).toBe(false);
    expect(await busyOn(c, callee.user.id)).toBe(false);
    // Once: no second no_answer from the other instance's heartbeat.
    await until(async () => (await callKeys(c.ctx.ports.redis!)).ringing === 0, "nothing ringing");
    expect(await cs.silent("call_rejected", r)).toBe(true);
  });

  test("an answered call is not ended by the ring time", async () => {
    const { caller, callee, c: cs, r } = await pair(c, d, [c, d]);
    await cs.ask("call_user", { receiverId: callee.user.id, callerPeerId: "p1" });
    await r.next("incoming_call");
    r.send("answer_call", { callerId: caller.user.id, answererPeerId: "p2" });
    await cs.next("call_answered");
    await Bun.sleep(1500);
    await settled(cs, r);
    expect(cs.frames.some((f) => f.event === "call_rejected" || f.event === "call_ended")).toBe(false);
    expect(await busyOn(d, caller.user.id)).toBe(true);
    cs.send("end_call", { receiverId: callee.user.id });
    await r.next("call_ended");
  });
});

describe("an instance that dies under a call", () => {
  test("the survivor on A hears call_ended within 10 s of the callee's instance going silent, and both are free", async () => {
    const e = makeTestApp(ENV, { ports: engine.instance(), dataDir: a.dataDir });
    try {
      await e.ctx.ports.ready();
      urls.set(e, e.listen().wsUrl);
      const { caller, callee, c, r } = await pair(a, e, [a, b, e]);
      await c.ask("call_user", { receiverId: callee.user.id, callerPeerId: "p1" });
      await r.next("incoming_call");
      r.send("answer_call", { callerId: caller.user.id, answererPeerId: "p2" });
      await c.next("call_answered");
      // As a kill -9 looks from Redis: the instance stops heartbeating and sends nothing more.
      const link = e.ctx.ports.redis!;
      link.cmd.disconnect();
      link.sub.disconnect();
      const died = Date.now();
      await c.next("call_ended", 10_000);
      expect(Date.now() - died).toBeLessThan(10_000);
      expect(await busyOn(a, caller.user.id)).toBe(false);
      expect(await busyOn(b, callee.user.id)).toBe(false);
      // The callee, back on a live instance, can be called again.
      const back = await on(b, callee.token);
      await settled(back);
      await applied();
      expect((await c.ask("call_user", { receiverId: callee.user.id, callerPeerId: "p3" })).data).toEqual({ status: "ringing" });
      await back.next("incoming_call");
      c.send("end_call", { receiverId: callee.user.id });
      await back.next("call_ended");
    } finally {
      await e.close();
    }
  }, 60_000);
});
