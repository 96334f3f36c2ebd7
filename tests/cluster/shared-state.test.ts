// State each instance used to keep as its own view, now shared (docs/DECISIONS.md "Issue 23: shared
// state"): two whole apps in one test over one Redis and one database (one SQLite file, or one
// PostgreSQL database on that pass). A block or a privacy change made through A is enforced by B
// when A's answer comes back, with no wait; the delivery tick comes back live when the receiver's
// only socket is on the other instance; a users row changed through A is read afresh by B; pairs
// kept apart in roulette (a report) are kept apart on B; a still written through A is found by B.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import Redis from "ioredis";
import { registerUser } from "../support/app.ts";
import { REDIS_TEST_URL } from "../support/cluster.ts";
import { twoInstancesForFile } from "../support/two-instances.ts";
import { until } from "../support/until.ts";
import { blocks as blocksTable, messages } from "../../src/storage/tables.ts";
import { cachedUser } from "../../src/users/cache.ts";
import { transaction } from "../../src/storage/index.ts";
import { evidenceRoot, saveStill, stillFile } from "../../src/reports/evidence.ts";

const uploads = mkdtempSync(join(tmpdir(), "webchat-shared-uploads-"));
const ENV = { PRESENCE_GRACE_SECONDS: "0", SIGNUP_RATE_LIMIT: "1000", UPLOADS_DIR: uploads };

const { a, b, urlA, urlB, socket: on } = twoInstancesForFile(ENV);
afterAll(() => rmSync(uploads, { recursive: true, force: true }));

describe("blocks and privacy: enforced by every instance when the change is answered", () => {
  test("a block made through A refuses the blocked user's message through B right after the 201; an unblock through B lets it through A's copy too", async () => {
    const alice = await registerUser(a);
    const bob = await registerUser(b);
    const bobB = await on(urlB, bob.token);
    // Without a block the message goes through.
    expect((await bobB.ask("send_message", { receiverId: alice.user.id, content: "hello", messageType: "text" })).error).toBeUndefined();
    const blocked = await a.call("POST", "/api/blocks", { token: alice.token, json: { userId: bob.user.id } });
    expect(blocked.status).toBe(201);
    // No wait: B applied the block before A answered.
    expect(b.ctx.blocks.between(alice.user.id, bob.user.id)).toBe(true);
    const refused = await bobB.ask("send_message", { receiverId: alice.user.id, content: "am I blocked?", messageType: "text" });
    expect(refused.error?.code).toBe("blocked");
    const upload = new FormData();
    upload.append("receiverId", String(alice.user.id));
    upload.append("file", new File(["x"], "x.txt", { type: "text/plain" }));
    expect((await b.call("POST", "/api/messages/upload", { token: bob.token, body: upload })).status).toBe(403);
    // Unblocked through the other instance: A's copy lets go before B answers.
    expect((await b.call("DELETE", `/api/blocks/${bob.user.id}`, { token: alice.token })).status).toBe(204);
    expect(a.ctx.blocks.between(alice.user.id, bob.user.id)).toBe(false);
    expect(b.ctx.blocks.between(alice.user.id, bob.user.id)).toBe(false);
    expect((await bobB.ask("send_message", { receiverId: alice.user.id, content: "thanks", messageType: "text" })).error).toBeUndefined();
  });

  test("an account made from a blocked person's browser is kept apart on the other instance too (carried accounts)", async () => {
    const alice = await registerUser(a);
    const bob = await registerUser(a);
    const fresh = await registerUser(a);
    await a.ctx.blocks.add(alice.user.id, bob.user.id, Date.now());
    await a.ctx.blocks.link(fresh.user.id, [bob.user.id]);
    expect(b.ctx.blocks.carriersOf(fresh.user.id)).toEqual([bob.user.id]);
    expect(b.ctx.blocks.between(alice.user.id, fresh.user.id)).toBe(true);
  });

  test("a privacy change to contacts only through A refuses a stranger through B right after the answer", async () => {
    const carol = await registerUser(a);
    const stranger = await registerUser(b);
    const strangerB = await on(urlB, stranger.token);
    const changed = await a.call("PUT", "/api/users/privacy", { token: carol.token, json: { allowFrom: "contacts" } });
    expect(changed.status).toBe(200);
    const refused = await strangerB.ask("send_message", { receiverId: carol.user.id, content: "hi", messageType: "text" });
    expect(refused.error?.code).toBe("not_accepting");
    expect((await a.call("PUT", "/api/users/privacy", { token: carol.token, json: { allowFrom: "everyone" } })).status).toBe(200);
    expect((await strangerB.ask("send_message", { receiverId: carol.user.id, content: "hi again", messageType: "text" })).error).toBeUndefined();
  });
});

describe("what PUB/SUB lost is read again", () => {
  test("a block stored while B's subscription was away is in B's copy once it is back", async () => {
    const alice = await registerUser(a);
    const bob = await registerUser(a);
    const link = b.ctx.ports.redis!;
    // Cut B's subscriber connection; ioredis reconnects and subscribes again by itself.
    link.sub.disconnect(true);
    // Stored by a process that tells nobody (as a change published while B was away, and lost).
    await transaction(a.ctx.db, (tx) => tx.insert(blocksTable).values({ blockerId: alice.user.id, blockedId: bob.user.id, createdAt: Date.now() }));
    expect(b.ctx.blocks.between(alice.user.id, bob.user.id)).toBe(false);
    await until(() => b.ctx.blocks.between(alice.user.id, bob.user.id), "B reading the blocks again after its subscription came back", 5_000);
  });
});

describe("the bus's applied publish", () => {
  test("resolves once every instance ran its listeners; an instance that never says so holds it for the bound only", async () => {
    const heard: unknown[] = [];
    const stop = b.ctx.ports.bus.subscribe("test.applied", (data) => heard.push(data));
    try {
      expect(await a.ctx.ports.bus.publishApplied("test.applied", 1)).toBe(true);
      expect(heard).toEqual([1]);
      // A subscriber to the bus channel that is no instance (it never answers): counted, so the
      // publish waits for it, and gives up after the bound.
      const silent = new Redis(REDIS_TEST_URL, { maxRetriesPerRequest: 1 });
      const prefix = (a.ctx.ports.redis as { prefix: string }).prefix;
      await silent.subscribe(`${prefix}bus`);
      try {
        const started = performance.now();
        expect(await a.ctx.ports.bus.publishApplied("test.applied", 2, 300)).toBe(false);
        expect(performance.now() - started).toBeGreaterThanOrEqual(290);
        expect(heard).toEqual([1, 2]);
      } finally {
        silent.disconnect();
      }
    } finally {
      stop();
    }
  });
});

describe("the delivery tick across instances", () => {
  test("message_delivered comes back live when the receiver's only socket is on the other instance, and the row is marked", async () => {
    const alice = await registerUser(a);
    const bob = await registerUser(b);
    const aliceA = await on(urlA, alice.token);
    const bobB = await on(urlB, bob.token);
    await until(() => b.ctx.hub.socketCount(bob.user.id) === 1, "Bob's socket on B");
    await b.ctx.ports.settled();
    const ack = await aliceA.ask("send_message", { receiverId: bob.user.id, content: "tick?", messageType: "text" });
    const id = ack.data.message.id;
    // Stored delivered, as in one process: the presence copy knows Bob has a tab on B.
    expect(ack.data.message.delivered_at).not.toBeNull();
    const tick = await aliceA.next("message_delivered");
    expect(tick.data).toMatchObject({ messageId: id, receiverId: bob.user.id, deliveredAt: expect.any(String) });
    expect((await bobB.next("new_message")).data.message.id).toBe(id);
    await until(async () => (await a.ctx.db.select().from(messages).where(eq(messages.id, id)))[0]?.deliveredAt != null, "the delivery mark stored");
  });

  test("no tick while the receiver has no socket anywhere; it comes when they connect on the other instance", async () => {
    const alice = await registerUser(a);
    const bob = await registerUser(b);
    const aliceA = await on(urlA, alice.token);
    const ack = await aliceA.ask("send_message", { receiverId: bob.user.id, content: "later", messageType: "text" });
    await Bun.sleep(300);
    expect(await aliceA.silent("message_delivered")).toBe(true);
    await on(urlB, bob.token);
    expect((await aliceA.next("message_delivered")).data.messageId).toBe(ack.data.message.id);
  });
});

describe("caches", () => {
  test("a profile change through A is read afresh by B at once (the users cache forgets it on every instance)", async () => {
    const dana = await registerUser(a, { name: "Dana Before" });
    const before = await cachedUser(b.ctx.db, dana.user.id);
    expect(before?.name).toBe("Dana Before");
    const changed = await a.call("PUT", "/api/users/profile", { token: dana.token, json: { name: "Dana After" } });
    expect(changed.status).toBe(200);
    await until(async () => (await cachedUser(b.ctx.db, dana.user.id))?.name === "Dana After", "B reading the new name", 1_000);
  });

  test("someone who reports someone is kept apart from them in roulette on the other instance too", async () => {
    const erin = await registerUser(a);
    const frank = await registerUser(a);
    const r = await a.call("POST", "/api/reports", { token: erin.token, json: { reportedUserId: frank.user.id, context: "chat", reason: "spam" } });
    expect(r.status).toBe(201);
    await until(() => b.ctx.roulette.keptApart(erin.user.id, frank.user.id), "B keeping the two apart", 1_000);
  });
});

describe("report stills with UPLOADS_DIR", () => {
  test("are written under the shared folder, where another instance finds them (never under /uploads)", async () => {
    expect(evidenceRoot(a.ctx.config)).toBe(uploads);
    const rel = await saveStill(a.ctx.config, new Uint8Array([0xff, 0xd8, 0xff, 0xd9]));
    expect(rel).toMatch(/^evidence\/[0-9a-f]{32}\.jpg$/);
    expect(stillFile(b.ctx.config, rel)).toBe(join(uploads, rel));
    // The uploads route serves files/ and avatars/ only.
    expect((await b.call("GET", `/uploads/${rel}`)).status).toBe(404);
    // Without UPLOADS_DIR (one server), DATA_DIR as before.
    expect(evidenceRoot({ dataDir: "/srv/data", uploadsDir: "/srv/data/uploads" })).toBe("/srv/data");
  });
});
