// Web Push with two instances over one Redis (issue 26: "one push per message, not one per
// instance"): only the instance that stores a message decides on a push, and it asks Redis whether
// the receiver has a tab open on another instance. Storage is one SQLite file opened by both (see
// two-instances.test.ts); the push service is the local one the push tests use.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { makeTestApp, registerUser, type TestApp } from "../support/app.ts";
import { redisEngine, type Engine } from "../support/cluster.ts";
import { browserSubscription, localPushService } from "../support/push-service.ts";
import { until } from "../support/until.ts";
import { connect, type TestSocket } from "../support/ws.ts";

const service = localPushService();
const ENV = { ...service.env, PRESENCE_GRACE_SECONDS: "0", SIGNUP_RATE_LIMIT: "1000" };

let engine: Engine;
let a: TestApp;
let b: TestApp;
const open: TestSocket[] = [];

beforeAll(async () => {
  await service.start();
  engine = redisEngine();
  a = makeTestApp(ENV, { ports: engine.instance() });
  b = makeTestApp(ENV, { ports: engine.instance(), dataDir: a.dataDir });
  await Promise.all([a.ctx.ports.ready(), b.ctx.ports.ready()]);
});

afterAll(async () => {
  for (const socket of open) socket.close();
  await b.close();
  await a.close();
  await engine.cleanup();
  await service.stop();
});

test("a message to someone whose only tab is on the other instance makes no push; with no tab anywhere, exactly one", async () => {
  const alice = await registerUser(a, { name: "Alice A" });
  const bob = await registerUser(b, { name: "Bob B" });
  const sub = await browserSubscription(service.url("/push/bob"));
  expect((await b.call("POST", "/api/push/subscriptions", { token: bob.token, json: sub.json })).status).toBe(201);
  const pushes = () => service.requests.filter((r) => r.path === "/push/bob");

  const aliceA = await connect(a.listen().wsUrl, alice.token);
  const bobB = await connect(b.listen().wsUrl, bob.token);
  open.push(aliceA, bobB);
  await until(() => b.ctx.hub.socketCount(bob.user.id) === 1, "Bob's socket registered on B");
  await b.ctx.ports.settled();
  await until(() => a.ctx.ports.fanOut.heldElsewhere(bob.user.id), "A hears that B holds Bob");

  await aliceA.ask("send_message", { receiverId: bob.user.id, content: "you are here", messageType: "text" });
  await bobB.next("new_message");
  // Every push decision of A is made and every push sent before the count is read.
  await a.ctx.push.idle();
  await b.ctx.push.idle();
  expect(pushes()).toEqual([]);

  bobB.close();
  await until(async () => !(await a.ctx.ports.fanOut.heldElsewhere(bob.user.id)), "B let go of Bob");
  await aliceA.ask("send_message", { receiverId: bob.user.id, content: "you left", messageType: "text" });
  await until(() => pushes().length >= 1, "a push to Bob's device");
  await a.ctx.push.idle();
  await b.ctx.push.idle();
  expect(pushes().length).toBe(1);
});
