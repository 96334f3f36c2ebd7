import { describe, expect, test } from "bun:test";
import { CallRegistry, type Call } from "../../src/calls/registry.ts";
import { registerUser } from "../support/app.ts";
import { listeningApp } from "../support/listening.ts";
import { until } from "../support/until.ts";
import { connect, settled } from "../support/ws.ts";

const t = listeningApp();

async function two() {
  const caller = await registerUser(t, { name: "Caller Cat" });
  const callee = await registerUser(t, { name: "Callee Cal" });
  const [c, r] = [await connect(t.wsUrl, caller.token), await connect(t.wsUrl, callee.token)];
  // Both held by the server (their pongs): a call to someone whose socket is still opening rings nobody.
  await settled(c, r);
  return { caller, callee, c, r };
}

describe("calls", () => {
  test("rings the receiver, and the answer reaches the caller with the answerer's peer id", async () => {
    const { caller, callee, c, r } = await two();
    c.send("call_user", { receiverId: callee.user.id, callerPeerId: "peer-caller" });
    expect((await r.next("incoming_call")).data).toEqual({ callerId: caller.user.id, callerName: "Caller Cat", callerPeerId: "peer-caller" });
    r.send("answer_call", { callerId: caller.user.id, answererPeerId: "peer-callee" });
    expect((await c.next("call_answered")).data).toEqual({ answererPeerId: "peer-callee" });
    r.send("end_call", { receiverId: caller.user.id });
    await c.next("call_ended");
    c.close();
    r.close();
  });

  test("a call to someone offline is rejected with reason offline", async () => {
    const caller = await registerUser(t);
    const away = await registerUser(t);
    const c = await connect(t.wsUrl, caller.token);
    c.send("call_user", { receiverId: away.user.id, callerPeerId: "p1" });
    expect((await c.next("call_rejected")).data).toEqual({ reason: "offline" });
    c.close();
  });

  test("a call to someone already in a call is rejected with reason busy", async () => {
    const { caller, callee, c, r } = await two();
    c.send("call_user", { receiverId: callee.user.id, callerPeerId: "p1" });
    await r.next("incoming_call");
    const third = await registerUser(t);
    const x = await connect(t.wsUrl, third.token);
    x.send("call_user", { receiverId: callee.user.id, callerPeerId: "p3" });
    expect((await x.next("call_rejected")).data).toEqual({ reason: "busy" });
    x.send("call_user", { receiverId: caller.user.id, callerPeerId: "p3" });
    expect((await x.next("call_rejected")).data).toEqual({ reason: "busy" });
    [c, r, x].forEach((s) => s.close());
  });

  test("declining tells the caller, and the pair can call again", async () => {
    const { caller, callee, c, r } = await two();
    c.send("call_user", { receiverId: callee.user.id, callerPeerId: "p1" });
    await r.next("incoming_call");
    r.send("reject_call", { callerId: caller.user.id });
    expect((await c.next("call_rejected")).data).toEqual({ reason: "declined" });
    c.send("call_user", { receiverId: callee.user.id, callerPeerId: "p2" });
    await r.next("incoming_call");
    c.close();
    r.close();
  });

  test("the caller hanging up while it rings stops the ringing", async () => {
    const { callee, c, r } = await two();
    c.send("call_user", { receiverId: callee.user.id, callerPeerId: "p1" });
    const ring = await r.next("incoming_call");
    c.send("end_call", { receiverId: callee.user.id });
    await r.next("call_ended");
    expect(ring.data.callerPeerId).toBe("p1");
    c.close();
    r.close();
  });

  test("nobody can end, answer or decline someone else's call", async () => {
    const { caller, callee, c, r } = await two();
    c.send("call_user", { receiverId: callee.user.id, callerPeerId: "p1" });
    await r.next("incoming_call");
    const intruder = await registerUser(t);
    const x = await connect(t.wsUrl, intruder.token);
    const end = await x.ask("end_call", { receiverId: callee.user.id });
    expect(end.data).toEqual({ ended: false });
    expect((await x.ask("answer_call", { callerId: caller.user.id, answererPeerId: "evil" })).error?.code).toBe("not_found");
    expect((await x.ask("reject_call", { callerId: caller.user.id })).error?.code).toBe("not_found");
    expect(await r.silent("call_ended", x)).toBe(true);
    expect(await c.silent("call_answered", x)).toBe(true);
    [c, r, x].forEach((s) => s.close());
  });

  test("closing the caller's socket ends the call for the other side", async () => {
    const { callee, c, r } = await two();
    c.send("call_user", { receiverId: callee.user.id, callerPeerId: "p1" });
    await r.next("incoming_call");
    c.close();
    await r.next("call_ended");
    r.close();
  });

  test("answering in one tab stops the ringing in the receiver's other tabs", async () => {
    const { caller, callee, c, r } = await two();
    const r2 = await connect(t.wsUrl, callee.token);
    c.send("call_user", { receiverId: callee.user.id, callerPeerId: "p1" });
    await r.next("incoming_call");
    await r2.next("incoming_call");
    r.send("answer_call", { callerId: caller.user.id, answererPeerId: "p2" });
    await r2.next("call_ended");
    await c.next("call_answered");
    [c, r, r2].forEach((s) => s.close());
  });

  test("a call placed while the callee's page reloads (no tab open) rings the tab that opens during the ring", async () => {
    const { caller, callee, c, r } = await two();
    // The old page says it is leaving, then closes; the new page's tab is not open yet.
    r.send("user_logout", {});
    r.close();
    await until(() => t.ctx.hub.socketsOf(callee.user.id).length === 0, "the old tab gone");
    // Strangers, still shown online (within the grace): it rings, with no tab to ring in.
    expect((await c.ask("call_user", { receiverId: callee.user.id, callerPeerId: "peer-caller" })).data).toEqual({ status: "ringing" });
    const tab = await connect(t.wsUrl, callee.token);
    expect((await tab.next("incoming_call")).data).toEqual({ callerId: caller.user.id, callerName: "Caller Cat", callerPeerId: "peer-caller" });
    tab.send("answer_call", { callerId: caller.user.id, answererPeerId: "peer-callee" });
    expect((await c.next("call_answered")).data).toEqual({ answererPeerId: "peer-callee" });
    c.close();
    await tab.next("call_ended");
    tab.close();
  });

  test("a call placed while the callee's only tab had logged out (hidden for long) rings in it once it is back, once", async () => {
    const { caller, callee, c, r } = await two();
    r.send("user_logout", {});
    await r.settle();
    expect((await c.ask("call_user", { receiverId: callee.user.id, callerPeerId: "peer-caller" })).data).toEqual({ status: "ringing" });
    await r.settle();
    expect(r.saw("incoming_call")).toBe(false);
    r.send("user_back_online", {});
    expect((await r.next("incoming_call")).data).toEqual({ callerId: caller.user.id, callerName: "Caller Cat", callerPeerId: "peer-caller" });
    // Visible again while already present: nothing more.
    r.send("user_back_online", {});
    await r.settle();
    expect(r.saw("incoming_call")).toBe(false);
    r.send("reject_call", { callerId: caller.user.id });
    expect((await c.next("call_rejected")).data).toEqual({ reason: "declined" });
    c.close();
    r.close();
  });

  test("refuses a call with no peer id", async () => {
    const { callee, c, r } = await two();
    expect((await c.ask("call_user", { receiverId: callee.user.id })).error?.code).toBe("validation");
    c.close();
    r.close();
  });
});

describe("a call nobody answers", () => {
  const quick = listeningApp({ CALL_RING_SECONDS: "1" });

  async function ringing() {
    const caller = await registerUser(quick);
    const callee = await registerUser(quick);
    const c = await connect(quick.wsUrl, caller.token);
    const r = await connect(quick.wsUrl, callee.token);
    const r2 = await connect(quick.wsUrl, callee.token);
    c.send("call_user", { receiverId: callee.user.id, callerPeerId: "p1" });
    await r.next("incoming_call");
    await r2.next("incoming_call");
    return { caller, callee, c, r, r2 };
  }

  test("ends after the ring time: the caller hears no_answer and every ringing tab of the callee call_ended", async () => {
    const { caller, callee, c, r, r2 } = await ringing();
    const started = Date.now();
    expect((await c.next("call_rejected")).data).toEqual({ reason: "no_answer" });
    expect(Date.now() - started).toBeGreaterThan(700);
    await r.next("call_ended");
    await r2.next("call_ended");
    expect(quick.ctx.calls.isBusy(caller.user.id)).toBe(false);
    expect(quick.ctx.calls.isBusy(callee.user.id)).toBe(false);
    [c, r, r2].forEach((s) => s.close());
  });

  test("an answered call is not ended by the ring timer", async () => {
    const { caller, c, r, r2 } = await ringing();
    r.send("answer_call", { callerId: caller.user.id, answererPeerId: "p2" });
    await c.next("call_answered");
    // A call rung after this one and left unanswered: its ring timer is due after this call's,
    // so once it ends as no_answer, this call's timer would have fired too.
    const later = await ringing();
    await later.c.next("call_rejected");
    await settled(c, r);
    expect(c.frames.some((f) => f.event === "call_rejected" || f.event === "call_ended")).toBe(false);
    expect(r.frames.some((f) => f.event === "call_ended")).toBe(false);
    expect(quick.ctx.calls.isBusy(caller.user.id)).toBe(true);
    [c, r, r2, later.c, later.r, later.r2].forEach((s) => s.close());
  });

  test("closing the caller's only socket while it rings ends the call at once, with no timer left behind", async () => {
    const { caller, callee, c, r, r2 } = await ringing();
    c.close();
    await r.next("call_ended");
    await r2.next("call_ended");
    expect(quick.ctx.calls.isBusy(callee.user.id)).toBe(false);
    expect(quick.ctx.calls.isBusy(caller.user.id)).toBe(false);
    [r, r2].forEach((s) => s.close());
  }, 10_000);
});

describe("the ring timer", () => {
  const call = (): Call => ({ callerId: 1, receiverId: 2, callerSocketId: "s1", receiverSocketId: null, answered: false });
  /** Resolves when a ring timer of another call, started now with `ms`, fires: every timer due earlier has had its turn. */
  const marker = (calls: CallRegistry, ms: number) =>
    new Promise<void>((resolve) => calls.start({ callerId: 8, receiverId: 9, callerSocketId: "m", receiverSocketId: null, answered: false }, ms, (c) => (calls.end(c), resolve())));

  test("fires once for a call still ringing", async () => {
    const calls = new CallRegistry();
    const fired: Call[] = [];
    const ringing = call();
    calls.start(ringing, 20, (c) => fired.push(c));
    // Timers fire in the order they are due: one due after the ring's marks that it had its turn.
    await marker(calls, 20);
    expect(fired).toEqual([ringing]);
    await marker(calls, 20);
    expect(fired).toEqual([ringing]);
  });

  test("is cleared by an answer, a decline or a hang-up, and by a socket closing (all end the call)", async () => {
    const calls = new CallRegistry();
    let fired = 0;
    const answered = call();
    calls.start(answered, 20, () => fired++);
    calls.answer(answered, "s2");
    await marker(calls, 20);
    calls.end(answered);
    const ended = call();
    calls.start(ended, 20, () => fired++);
    calls.end(ended);
    // A new call between the same two is not ended by the old call's timer.
    const later = call();
    calls.start(later, 10_000, () => fired++);
    await marker(calls, 20);
    expect(fired).toBe(0);
    expect(calls.of(1)).toBe(later);
    calls.end(later);
  });
});
