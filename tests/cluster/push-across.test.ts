// Web Push with two instances over one Redis (issue 26: "one push per message, not one per
// instance"; "calls ring as a notification while they ring"): only the instance that stores a
// message decides on a push, and it asks Redis whether the receiver has a tab open on another
// instance; a call is pushed by the instance that handles `call_user`, and its end (a hang-up, a
// decline, the ring time) closes the notification with one `call_ended` push from whichever
// instance ended it. Two apps over one Redis and one database (tests/support/two-instances.ts: one
// SQLite file, or one PostgreSQL database on the PostgreSQL pass); the push service is the local
// one the push tests use.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { registerUser, type TestApp } from "../support/app.ts";
import { browserSubscription, decryptPush, localPushService, type BrowserSubscription } from "../support/push-service.ts";
import { twoInstancesForFile } from "../support/two-instances.ts";
import { until } from "../support/until.ts";
import type { TestSocket } from "../support/ws.ts";

const service = localPushService();
const ENV = { ...service.env, PRESENCE_GRACE_SECONDS: "0", SIGNUP_RATE_LIMIT: "1000" };

// Registered before the instances' beforeAll and after their afterAll: the service outlives them.
beforeAll(() => service.start());
const { a, b, tabKnownToBoth: tab } = twoInstancesForFile(ENV);
afterAll(() => service.stop());

type Person = Awaited<ReturnType<typeof registerUser>>;


/** Every push decision of both instances made and every push sent. */
const pushesSettled = (...apps: TestApp[]) => Promise.all(apps.map((app) => app.ctx.push.idle()));

let devices = 0;

/** A device of `person` with notifications on, subscribed through `app`. */
async function device(app: TestApp, person: Person): Promise<{ sub: BrowserSubscription; path: string }> {
  const path = `/push/device-${++devices}`;
  const sub = await browserSubscription(service.url(path));
  expect((await app.call("POST", "/api/push/subscriptions", { token: person.token, json: sub.json })).status).toBe(201);
  return { sub, path };
}

/** The tab closed, and neither instance holds a socket of the person any more. */
async function closeTab(app: TestApp, socket: TestSocket, person: Person): Promise<void> {
  socket.close();
  await until(() => app.ctx.hub.socketCount(person.user.id) === 0, "the tab gone from its instance");
  await app.ctx.ports.settled();
  const other = app === a ? b : a;
  await until(async () => !(await other.ctx.ports.fanOut.heldElsewhere(person.user.id)), "the other instance let go of the person");
}

test("a message to someone whose only tab is on the other instance makes no push; with no tab anywhere, exactly one", async () => {
  const alice = await registerUser(a, { name: "Alice A" });
  const bob = await registerUser(b, { name: "Bob B" });
  const { path } = await device(b, bob);

  const aliceA = await tab(a, alice);
  const bobB = await tab(b, bob);
  await aliceA.ask("send_message", { receiverId: bob.user.id, content: "you are here", messageType: "text" });
  await bobB.next("new_message");
  await pushesSettled(a, b);
  expect(service.requestsTo(path)).toEqual([]);

  await closeTab(b, bobB, bob);
  await aliceA.ask("send_message", { receiverId: bob.user.id, content: "you left", messageType: "text" });
  await until(() => service.requestsTo(path).length >= 1, "a push to Bob's device");
  await pushesSettled(a, b);
  expect(service.requestsTo(path).length).toBe(1);
});

describe("calls ring by push across instances", () => {
  test("a call through A to someone with no tab anywhere rings by exactly one push; the caller's hang-up through B closes it with one call_ended", async () => {
    const alice = await registerUser(a, { name: "Caller A" });
    const bob = await registerUser(b, { name: "Callee nowhere" });
    const { sub, path } = await device(b, bob);
    const aliceA = await tab(a, alice);
    const aliceB = await tab(b, alice);

    expect((await aliceA.ask("call_user", { receiverId: bob.user.id, callerPeerId: "peer-caller-a" })).data).toEqual({ status: "ringing" });
    await until(() => service.requestsTo(path).length >= 1, "the ring");
    await pushesSettled(a, b);
    expect(service.requestsTo(path).length).toBe(1);
    const ring = service.requestsTo(path)[0]!;
    expect(ring.headers.topic).toBe(`call-${alice.user.id}`);
    expect(await decryptPush(sub, ring.body)).toMatchObject({ type: "call", tag: `call-${alice.user.id}`, chatId: alice.user.id, title: "Caller A" });

    // The caller hangs up from her other tab, on the instance that did not start the call.
    expect((await aliceB.ask("end_call", { receiverId: bob.user.id })).data).toEqual({ ended: true });
    await until(() => service.requestsTo(path).length >= 2, "the end of the ring");
    await pushesSettled(a, b);
    expect(service.requestsTo(path).length).toBe(2);
    expect(await decryptPush(sub, service.requestsTo(path)[1]!.body)).toEqual({ type: "call_ended", tag: `call-${alice.user.id}` });
  });

  test("no push while the callee has a tab on the other instance: it rings there; and a tab there that signed out is not called by push either", async () => {
    const alice = await registerUser(a, { name: "Caller A2" });
    const bob = await registerUser(b, { name: "Callee on B" });
    const { path } = await device(b, bob);
    const aliceA = await tab(a, alice);
    const bobB = await tab(b, bob);
    // A conversation: the caller knows the callee's presence at once.
    await aliceA.ask("send_message", { receiverId: bob.user.id, content: "may I call?", messageType: "text" });
    await bobB.next("new_message");
    await until(() => a.ctx.contacts.talked(bob.user.id, alice.user.id), "A knows the conversation");

    expect((await aliceA.ask("call_user", { receiverId: bob.user.id, callerPeerId: "peer-a2" })).data).toEqual({ status: "ringing" });
    expect((await bobB.next("incoming_call")).data).toMatchObject({ callerId: alice.user.id, callerPeerId: "peer-a2" });
    await aliceA.ask("end_call", { receiverId: bob.user.id });
    await bobB.next("call_ended");
    await pushesSettled(a, b);
    expect(service.requestsTo(path)).toEqual([]);

    // Signed out in the tab on B (user_logout): not reachable for a call, as on one instance
    // ("offline"), and not rung on the devices of someone whose tab is open.
    bobB.send("user_logout", {});
    await bobB.settle();
    await b.ctx.ports.settled();
    await until(async () => !(await a.ctx.calls.present(bob.user.id)), "A sees Bob signed out");
    expect((await aliceA.ask("call_user", { receiverId: bob.user.id, callerPeerId: "peer-a2" })).data).toEqual({ status: "offline" });
    await pushesSettled(a, b);
    expect(service.requestsTo(path)).toEqual([]);
  });

  test("a tab the callee opens on B while the push rings there too; declining in it closes the notification with one call_ended", async () => {
    const alice = await registerUser(a, { name: "Caller A3" });
    const bob = await registerUser(b, { name: "Callee late" });
    const { sub, path } = await device(a, bob);
    const aliceA = await tab(a, alice);
    await aliceA.ask("call_user", { receiverId: bob.user.id, callerPeerId: "peer-a3" });
    await until(() => service.requestsTo(path).length >= 1, "the ring");
    const bobB = await tab(b, bob);
    expect((await bobB.next("incoming_call")).data).toEqual({ callerId: alice.user.id, callerName: "Caller A3", callerPeerId: "peer-a3" });
    await bobB.ask("reject_call", { callerId: alice.user.id });
    expect((await aliceA.next("call_rejected")).data.reason).toBe("declined");
    await until(() => service.requestsTo(path).length >= 2, "the end of the ring");
    await pushesSettled(a, b);
    expect(service.requestsTo(path).length).toBe(2);
    expect(await decryptPush(sub, service.requestsTo(path)[1]!.body)).toEqual({ type: "call_ended", tag: `call-${alice.user.id}` });
  });
});

describe("a call nobody answers", () => {
  const short = twoInstancesForFile({ ...ENV, CALL_RING_SECONDS: "1" });

  test("rings by one push and, at the ring time, one call_ended closes it", async () => {
    const alice = await registerUser(short.a, { name: "Caller rings out" });
    const bob = await registerUser(short.b, { name: "Callee away" });
    const path = `/push/device-${++devices}`;
    const sub = await browserSubscription(service.url(path));
    expect((await short.b.call("POST", "/api/push/subscriptions", { token: bob.token, json: sub.json })).status).toBe(201);
    const aliceA = await short.socket(short.urlA, alice.token);
    expect((await aliceA.ask("call_user", { receiverId: bob.user.id, callerPeerId: "peer-out" })).data).toEqual({ status: "ringing" });
    expect((await aliceA.next("call_rejected")).data).toEqual({ reason: "no_answer" });
    // The ring ended on exactly one instance, whose ring-end listeners ran before the caller was told.
    await pushesSettled(short.a, short.b);
    const pushes = service.requestsTo(path);
    expect(pushes.length).toBe(2);
    const payloads = await Promise.all(pushes.map((p) => decryptPush(sub, p.body)));
    expect(payloads.map((p) => (p as { type: string }).type).toSorted()).toEqual(["call", "call_ended"]);
    aliceA.close();
  });
});
