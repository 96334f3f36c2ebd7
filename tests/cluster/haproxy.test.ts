// Two real servers (`bun src/server.ts`, CLUSTER_PREVIEW=1) on one PostgreSQL database, one Redis
// prefix and one UPLOADS_DIR, behind HAProxy running deploy/haproxy.cfg (tests/support/
// cluster-harness.ts): what API.md "Several instances" promises, seen from a client of the
// balancer. Runs on the suite's PostgreSQL pass only (a cluster needs PostgreSQL); the suite makes
// sure Redis answers and HAProxy is installed (scripts/machine/).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Redis from "ioredis";
import { engine } from "../../src/storage/engine.ts";
import { REDIS_TEST_URL } from "../support/cluster.ts";
import { HAPROXY, HAPROXY_CONFIG, harnessConfig, startCluster, type Cluster, type ClusterRequest } from "../support/cluster-harness.ts";
import type { TestSocket } from "../support/ws.ts";
import { until } from "../support/until.ts";

/** Per client address and hour; every request here comes from 127.0.0.1 (the last X-Forwarded-For entry). */
const SIGNUPS = 25;

describe("deploy/haproxy.cfg, the documented configuration", () => {
  const documented = readFileSync(HAPROXY_CONFIG, "utf8");
  const servers = [
    { name: "app1", port: 4001 },
    { name: "app2", port: 4002 },
  ];

  test("the harness runs it with only the bind address, the admin socket and the servers replaced (plus its steering rules)", () => {
    const ran = harnessConfig(documented, 4000, "/tmp/x.sock", servers);
    const kept = (text: string) => text.split("\n").filter((l) => !/^\s+(bind|stats socket|server|use-server|http-response set-header x-served-by)\s/.test(l) && !l.includes("# The harness:"));
    expect(kept(ran)).toEqual(kept(documented));
    expect(ran).toContain("bind 127.0.0.1:4000");
    expect(ran).toContain("server app2 127.0.0.1:4002");
    expect(ran).not.toContain("10.0.0.11");
    // A file whose shape changed is refused, not half used.
    expect(() => harnessConfig(documented.replace(/^\s+bind .*$/m, ""), 4000, "/tmp/x.sock", servers)).toThrow(/update the harness/);
  });

  test.skipIf(!HAPROXY)("HAProxy accepts it as documented and as the harness runs it (haproxy -c)", () => {
    const dir = mkdtempSync(join(tmpdir(), "webchat-haproxy-check-"));
    try {
      // The documented admin socket's folder may not exist here; -c does not open it.
      for (const text of [documented, harnessConfig(documented, 4000, join(dir, "admin.sock"), servers)]) {
        writeFileSync(join(dir, "haproxy.cfg"), text);
        const checked = Bun.spawnSync([HAPROXY!, "-c", "-f", join(dir, "haproxy.cfg")], { stdout: "pipe", stderr: "pipe" });
        expect(`${checked.exitCode} ${checked.stderr.toString()}`).toStartWith("0 ");
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe.skipIf(engine !== "postgres")("several instances behind HAProxy", () => {
  let cluster: Cluster;
  let redis: Redis;
  const open: TestSocket[] = [];

  beforeAll(async () => {
    cluster = await startCluster({ env: { SIGNUP_RATE_LIMIT: String(SIGNUPS), PRESENCE_GRACE_SECONDS: "0" } });
    redis = new Redis(REDIS_TEST_URL, { maxRetriesPerRequest: 1 });
  }, 90_000);

  afterAll(async () => {
    for (const socket of open) socket.close();
    redis?.disconnect();
    await cluster?.stop();
  }, 30_000);

  const call = (method: string, path: string, options: ClusterRequest = {}) => cluster.call(method, path, options);

  /** A new account signed up through `instance`, which answered. */
  async function register(instance: string) {
    const made = await cluster.register(instance);
    expect(made.servedBy).toBe(instance);
    return made;
  }

  async function socket(token: string, instance?: string) {
    const s = await cluster.connect(token, instance);
    open.push(s);
    return s;
  }

  /** The instances Redis lists as holding a socket of the user (the fan-out set). */
  const holders = (userId: number) => redis.smembers(`${cluster.redisPrefix}su:${userId}`);

  test("round robin: consecutive requests, and consecutive sockets, go to different instances", async () => {
    const served = [];
    for (let i = 0; i < 4; i++) served.push((await call("GET", "/healthz")).servedBy);
    expect(new Set(served)).toEqual(new Set(["app1", "app2"]));
    expect(served[0]).not.toBe(served[1]);
    const { token, user } = await register("app1");
    await socket(token);
    await socket(token);
    await until(async () => (await holders(user.id)).length === 2, "two instances holding the user's two sockets");
  });

  test("an account signed up through one instance logs in through the other, and its session holds on both", async () => {
    const { username, user } = await register("app1");
    // As a browser on the site's page: its Origin is the balancer's address, which the instance
    // knows from X-Forwarded-Host and X-Forwarded-Proto (TRUST_PROXY); another site's is refused.
    const foreign = await call("POST", "/api/auth/login", { instance: "app2", headers: { origin: "http://elsewhere.example" }, json: { username, password: "correct horse" } });
    expect(foreign.status).toBe(403);
    const login = await call("POST", "/api/auth/login", { instance: "app2", headers: { origin: cluster.url }, json: { username, password: "correct horse" } });
    expect(login.status).toBe(200);
    expect(login.servedBy).toBe("app2");
    for (const instance of ["app1", "app2"]) {
      const me = await call("GET", "/api/auth/me", { instance, token: login.body.token });
      expect(me.status).toBe(200);
      expect(me.body.user.id).toBe(user.id);
    }
  });

  test("a message between sockets on different instances arrives, the ack comes back, and the sender's tab on the other instance hears it", async () => {
    const alice = await register("app1");
    const bob = await register("app2");
    const alice1 = await socket(alice.token, "app1");
    const alice2 = await socket(alice.token, "app2");
    const bob2 = await socket(bob.token, "app2");
    // Redis must know where the sockets are before the send: a live copy is at most once (the
    // message is stored either way and a client that reconnects reads it from the API).
    await until(async () => (await holders(alice.user.id)).length === 2 && (await holders(bob.user.id)).length === 1, "Redis knowing every socket");
    const ack = await alice1.ask("send_message", { receiverId: bob.user.id, content: "across the balancer", messageType: "text" });
    const id = ack.data.message.id;
    expect(ack.data.message).toMatchObject({ content: "across the balancer", receiver_id: bob.user.id });
    expect((await bob2.next("new_message")).data.message).toMatchObject({ id, content: "across the balancer", sender_id: alice.user.id });
    expect((await alice2.next("message_sent")).data.message.id).toBe(id);
    // And back, from app2 to app1.
    const back = await bob2.ask("send_message", { receiverId: alice.user.id, content: "and back", messageType: "text" });
    expect((await alice1.next("new_message")).data.message.id).toBe(back.data.message.id);
  });

  // hub.isConnected is this instance's view; the sender's instance asks Redis's fan-out set
  // whether another instance holds a socket of the receiver, marks the message and says so
  // (src/messages/notify.ts, deliveredElsewhere).
  test("the delivery tick (message_delivered) comes back live when the receiver's only socket is on the other instance", async () => {
    const alice = await register("app1");
    const bob = await register("app2");
    const alice1 = await socket(alice.token, "app1");
    await socket(bob.token, "app2");
    await until(async () => (await holders(bob.user.id)).length === 1, "Redis knowing Bob's socket");
    const ack = await alice1.ask("send_message", { receiverId: bob.user.id, content: "tick?", messageType: "text" });
    expect((await alice1.next("message_delivered", 3_000)).data.messageId).toBe(ack.data.message.id);
  });

  // Every instance applies a block before the blocker's answer (src/blocks/registry.ts share, the
  // bus's publishApplied): the message right after the 201 is refused, with no wait.
  test("a block made through one instance refuses messages sent through the other as soon as the blocker has the 201", async () => {
    const alice = await register("app1");
    const bob = await register("app2");
    const bob2 = await socket(bob.token, "app2");
    const blocked = await call("POST", "/api/blocks", { instance: "app1", token: alice.token, json: { userId: bob.user.id } });
    expect(blocked.status).toBe(201);
    const r = await bob2.ask("send_message", { receiverId: alice.user.id, content: "am I blocked?", messageType: "text" });
    expect(r.error?.code).toBe("blocked");
  });

  test("a file uploaded through one instance is served by the other, and an avatar too", async () => {
    const alice = await register("app1");
    const bob = await register("app2");
    const form = new FormData();
    form.append("receiverId", String(bob.user.id));
    form.append("file", new File(["one shared folder"], "shared.txt", { type: "text/plain" }));
    const sent = await call("POST", "/api/messages/upload", { instance: "app1", token: alice.token, body: form });
    expect(sent.status).toBe(201);
    const path: string = sent.body.message.file_path;
    expect(existsSync(`${cluster.uploadsDir}/${path}`)).toBe(true);
    const got = await call("GET", `/uploads/${path}`, { instance: "app2", token: bob.token });
    expect(got.status).toBe(200);
    expect(got.servedBy).toBe("app2");
    expect(got.text).toBe("one shared folder");

    const png = Uint8Array.from(atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=="), (c) => c.charCodeAt(0));
    const avatarForm = new FormData();
    avatarForm.append("avatar", new File([png], "me.png", { type: "image/png" }));
    const avatar = await call("POST", "/api/users/avatar/upload", { instance: "app2", token: bob.token, body: avatarForm });
    expect(avatar.status).toBe(200);
    expect((await call("GET", avatar.body.avatar_url, { instance: "app1" })).status).toBe(200);
  });

  test("a logout through one instance closes the session's sockets on every instance within 1 s", async () => {
    const carol = await register("app1");
    const on1 = await socket(carol.token, "app1");
    const on2 = await socket(carol.token, "app2");
    await until(async () => (await holders(carol.user.id)).length === 2, "Redis knowing both sockets");
    const started = performance.now();
    const out = await call("POST", "/api/auth/logout", { instance: "app2", token: carol.token });
    expect(out.status).toBe(200);
    const closed = await Promise.all([on1.closed, on2.closed].map((p) => p.then((c) => ({ ...c, afterMs: performance.now() - started }))));
    for (const c of closed) {
      expect(c.code).toBe(4401);
      expect(c.afterMs).toBeLessThan(1_000);
    }
    // And the session is refused by both.
    for (const instance of ["app1", "app2"]) expect((await call("GET", "/api/auth/me", { instance, token: carol.token })).status).toBe(401);
  });

  test("the guest entry limit counts across instances: SIGNUP_RATE_LIMIT in all, not per instance", async () => {
    const guest = (instance: string) => call("POST", "/api/guest/create", { instance, json: { gender: "female", adult: true } });
    const statuses = [];
    for (let i = 0; i < SIGNUPS; i++) statuses.push((await guest(i % 2 === 0 ? "app1" : "app2")).status);
    expect(statuses.every((s) => s === 200 || s === 201)).toBe(true);
    for (const instance of ["app1", "app2"]) {
      const refused = await guest(instance);
      expect(refused.status).toBe(429);
      expect(refused.servedBy).toBe(instance);
    }
  });

  /** Requests through HAProxy without steering, every 20 ms until `stop` is called: each one's status. */
  function keepAsking() {
    const statuses: number[] = [];
    let going = true;
    const loop = (async () => {
      while (going) {
        statuses.push(await fetch(`${cluster.url}/healthz`).then((r) => r.status, () => 0));
        await Bun.sleep(20);
      }
    })();
    return async () => {
      going = false;
      await loop;
      return statuses;
    };
  }

  test("an instance killed (SIGKILL): every request still answers, its sockets close and reconnect through HAProxy to the other, and messages reach them there", async () => {
    const alice = await register("app2");
    const bob = await register("app1");
    const alice2 = await socket(alice.token, "app2");
    const bob1 = await socket(bob.token, "app1");
    await until(async () => (await holders(bob.user.id)).length === 1, "Redis knowing Bob's socket");
    const answers = keepAsking();
    await Bun.sleep(200);
    await cluster.instance("app1").kill();
    expect((await bob1.closed).code).not.toBe(1000);
    // Reconnecting as a browser does, through the balancer: the dead instance refuses, HAProxy
    // redispatches (and within about 2 s its checks mark the instance down).
    const again = await socket(bob.token);
    await Bun.sleep(2_500);
    const statuses = await answers();
    expect(statuses.length).toBeGreaterThan(20);
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    // The survivor holds Bob's new socket (Redis lets go of the dead one's entries within about 6 s).
    await until(async () => (await holders(bob.user.id)).length === 1 && (await call("GET", "/healthz")).servedBy === "app2", "Bob held by app2 alone", 15_000);
    await alice2.ask("send_message", { receiverId: bob.user.id, content: "still there?", messageType: "text" });
    expect((await again.next("new_message")).data.message.content).toBe("still there?");
    // Back: HAProxy sends to it again once its checks pass.
    await cluster.instance("app1").start();
    await until(async () => (await call("GET", "/healthz", { instance: "app1" })).servedBy === "app1", "app1 back behind HAProxy", 15_000);
  }, 60_000);

  test("a rolling restart (SIGTERM, then start): no request fails meanwhile, and the instance takes requests again", async () => {
    const answers = keepAsking();
    await Bun.sleep(200);
    expect(await cluster.instance("app2").stop()).toBe(0);
    await Bun.sleep(1_000);
    await cluster.instance("app2").start();
    await until(async () => (await call("GET", "/healthz", { instance: "app2" })).servedBy === "app2", "app2 back behind HAProxy", 15_000);
    const statuses = await answers();
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
  }, 60_000);

  test("stopping the cluster leaves no process, database, Redis key or folder behind", async () => {
    for (const socket of open.splice(0)) socket.close();
    const { databaseUrl, redisPrefix, instances } = cluster;
    await cluster.stop();
    for (const instance of instances) expect(instance.running()).toBe(false);
    expect(existsSync(cluster.uploadsDir)).toBe(false);
    const name = new URL(databaseUrl).pathname.slice(1);
    const found = Bun.spawnSync(["psql", new URL("/postgres", databaseUrl).toString(), "-Atc", `SELECT count(*) FROM pg_database WHERE datname = '${name}'`]);
    expect(found.stdout.toString().trim()).toBe("0");
    const [, keys] = await redis.scan("0", "MATCH", `${redisPrefix}*`, "COUNT", 10_000);
    expect(keys).toEqual([]);
  }, 30_000);
});
