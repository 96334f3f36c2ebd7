// Two instances of the whole app in one test, sharing one Redis (a fresh key prefix) and one
// database: on the PostgreSQL pass one PostgreSQL database, on the SQLite pass ONE SQLite file
// opened by both (only here: a real cluster runs on PostgreSQL, and start-up refuses REDIS_URL
// without it; real servers behind HAProxy are tests/cluster/haproxy.test.ts). What it shows: a
// message from a user on instance A reaches the other user on instance B (and the sender's own tab
// on B), presence announced by one instance is heard on the other and is the same on both, a
// logout or an expel on one closes sockets on the other, and limits (sign-ups, the socket cap)
// count across both.
import { describe, expect, test } from "bun:test";
import { loginAs, makeTestApp, registerUser, type TestApp } from "../support/app.ts";
import { twoInstancesForFile } from "../support/two-instances.ts";
import { about, connect } from "../support/ws.ts";
import { until } from "../support/until.ts";

const ENV = { PRESENCE_GRACE_SECONDS: "0", SOCKET_CAP: "2:50", SIGNUP_RATE_LIMIT: "1000" };

const { engine, a, b, urlA, urlB, socket: on } = twoInstancesForFile(ENV);

describe("two instances over one Redis", () => {
  test("a message from a user on instance A reaches the receiver on B, and the sender's own tab on B", async () => {
    const alice = await registerUser(a, { name: "Alice A" });
    const bob = await registerUser(b, { name: "Bob B" });
    const aliceA = await on(urlA, alice.token);
    const aliceB = await on(urlB, alice.token);
    const bobB = await on(urlB, bob.token);
    // B tells Redis it holds sockets of Alice and Bob as they open; Redis does not run two
    // instances' commands in the order they were sent, so A's send must come after B's note is
    // applied, or Redis finds nobody on B (the message is stored; a live copy is at most once).
    await until(() => b.ctx.hub.socketCount(bob.user.id) === 1 && b.ctx.hub.socketCount(alice.user.id) === 1, "both sockets registered on B");
    await b.ctx.ports.settled();
    const ack = await aliceA.ask("send_message", { receiverId: bob.user.id, content: "across instances", messageType: "text" });
    const id = ack.data.message.id;
    expect((await bobB.next("new_message")).data.message).toMatchObject({ id, content: "across instances", sender_id: alice.user.id });
    expect((await aliceB.next("message_sent")).data.message.id).toBe(id);
    // And back: B to A.
    await bobB.ask("send_message", { receiverId: alice.user.id, content: "and back", messageType: "text" });
    expect((await aliceA.next("new_message")).data.message.content).toBe("and back");
  });

  test("a broadcast from A (a new account) reaches a socket on B once", async () => {
    const erin = await registerUser(b);
    const erinB = await on(urlB, erin.token);
    const fresh = await registerUser(a, { name: "Fresh Face" });
    const heard = await erinB.next("new_user_registered", undefined, (f) => f.data?.name === fresh.user.name);
    expect(heard.data.name).toBe("Fresh Face");
    expect(await erinB.silent("new_user_registered")).toBe(true);
  });

  test("presence: a user arriving and leaving on B is announced to their partner on A, and both instances agree", async () => {
    const alice = await registerUser(a, { name: "Alice P" });
    const bob = await registerUser(a, { name: "Bob P" });
    const aliceA = await on(urlA, alice.token);
    await aliceA.ask("send_message", { receiverId: bob.user.id, content: "are you there?", messageType: "text" });
    // The conversation is news to B through the bus: B announces Bob to Alice.
    await until(() => b.ctx.contacts.talked(bob.user.id, alice.user.id), "B knowing the conversation");
    const bobB = await connect(urlB, bob.token);
    expect((await aliceA.next("user_online", undefined, about(bob.user.id))).data.userId).toBe(bob.user.id);
    await until(() => a.ctx.hub.isOnline(bob.user.id) && b.ctx.hub.isOnline(bob.user.id), "Bob online on both instances");
    bobB.close();
    expect((await aliceA.next("user_offline", undefined, about(bob.user.id))).data.userId).toBe(bob.user.id);
    await until(() => !a.ctx.hub.isOnline(bob.user.id) && !b.ctx.hub.isOnline(bob.user.id), "Bob offline on both instances");
    expect(a.ctx.hub.usersOnline).toBe(b.ctx.hub.usersOnline);
  });

  test("the socket cap counts both instances: a third socket (cap 2) closes with 4429 wherever it opens", async () => {
    const carol = await registerUser(a);
    await on(urlA, carol.token);
    await on(urlB, carol.token);
    await until(() => a.ctx.hub.socketCount(carol.user.id) === 1 && b.ctx.hub.socketCount(carol.user.id) === 1, "one socket on each");
    // Each instance takes the shared slot just after it registers the socket, and Redis does not run
    // two instances' commands in the order they were sent: a third socket opened before B's slot is
    // taken may win it, and then B's socket is the one closed with 4429 (the cap still holds).
    // Both claims were sent (at open); once each instance's earlier commands are applied, they are taken.
    await Promise.all([a.ctx.ports.settled(), b.ctx.ports.settled()]);
    const slots = a.ctx.ports.limits.slots("sockets");
    expect(await slots.held(`user:${carol.user.id}`)).toBe(2);
    const third = await connect(urlA, carol.token).catch((error: Error) => error);
    const code = third instanceof Error ? Number(third.message.match(/\d+$/)?.[0]) : (await third.closed).code;
    expect(code).toBe(4429);
    expect(await slots.held(`user:${carol.user.id}`)).toBe(2);
  });

  test("a logout on A closes that session's socket on B at once; a moderator ending sessions on A closes them on B too", async () => {
    const dave = await registerUser(a);
    const daveB = await connect(urlB, dave.token);
    const out = await a.call("POST", "/api/auth/logout", { token: dave.token });
    expect(out.status).toBeLessThan(300);
    expect((await daveB.closed).code).toBe(4401);
    // A second session, its sockets on B; the expel goes out from A (as a ban or "end sessions" does).
    const again = await loginAs(a, dave.user.username);
    expect(again.status).toBe(200);
    const daveB2 = await connect(urlB, again.body.token);
    a.ctx.hub.expel(dave.user.id, 4403, "Banned");
    expect((await daveB2.closed).code).toBe(4403);
    await until(() => !b.ctx.hub.isOnline(dave.user.id), "Dave offline on B");
  }, 60_000);

  test("a limit counts across both: sign-ups from one address share one budget", async () => {
    const env = { ...ENV, SIGNUP_RATE_LIMIT: "3", TRUST_PROXY: "1" };
    const ports = [engine.instance(), engine.instance()];
    const c = makeTestApp(env, { ports: ports[0] });
    const d = makeTestApp(env, { ports: ports[1], dataDir: c.dataDir });
    try {
      const from = { "x-forwarded-for": "198.51.100.7" };
      const signup = (t: TestApp, n: number) =>
        t.call("POST", "/api/auth/register", {
          headers: from,
          json: { username: `limit_${process.pid % 1000}_${n}`, email: `limit${process.pid}_${n}@example.com`, password: "correct horse", name: `L ${n}`, gender: "female", age: 30, country_code: "DE", adult: true },
        });
      expect((await signup(c, 1)).status).toBe(201);
      expect((await signup(d, 2)).status).toBe(201);
      expect((await signup(c, 3)).status).toBe(201);
      const refused = await signup(d, 4);
      expect(refused.status).toBe(429);
      expect(refused.body.code).toBe("rate_limited");
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    } finally {
      await d.close();
      await c.close();
    }
  });
});
