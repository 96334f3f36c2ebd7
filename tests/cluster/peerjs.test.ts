// PeerJS signalling over two whole apps sharing one Redis (a fresh key prefix) and one database,
// spoken to by raw WebSocket clients as the browser's `peerjs` client speaks (tests/peerjs/). What
// it shows: a peer on A reaches a peer on B and hears its answer, in order; an id taken on one
// instance is taken on both, and its token takes it over from the other; what waits for an absent
// id reaches it when it connects on the other instance, or expires with EXPIRE; the caps count
// both instances; what waits stays within the bounds whoever sends it; and a dead instance's peers
// are let go (their ids free, messages to them answered as for a peer that left).
import { afterAll, describe, expect, test } from "bun:test";
import { makeTestApp, registerUser, type TestApp } from "../support/app.ts";
import { twoInstancesForFile } from "../support/two-instances.ts";
import { until } from "../support/until.ts";
import { closeOf, openPeerSocket, roundTrip, type PeerTestSocket } from "../peerjs/client.ts";
import { DEFAULT_PEER_OPTIONS } from "../../src/peerjs/options.ts";
import { peerScripts } from "../../src/cluster/peerjs-lua.ts";

// Bursts big enough for the floods below: the socket-event bucket is per instance on purpose.
const ENV = { PRESENCE_GRACE_SECONDS: "0", SOCKET_RATE_LIMIT: "200:400" };

const open: PeerTestSocket[] = [];
let ids = 0;

// Registered before the instances' afterAll, so it runs first: every peer's close is seen through while its server still runs.
afterAll(async () => {
  for (const socket of open) socket.close();
  await Promise.all(open.map((socket) => closeOf(socket)));
});

const { engine, a, b, urlA, urlB } = twoInstancesForFile(ENV);

const freshId = (name: string) => `${name}-${process.pid}-${++ids}`;

/** A peer socket on `wsUrl` for the session `token`, as the browser client opens it. */
function peer(wsUrl: string, sessionToken: string, id: string, peerToken = "tok"): PeerTestSocket {
  const url = `${wsUrl}/peerjs/peerjs?key=peerjs&id=${encodeURIComponent(id)}&token=${peerToken}&version=1.5.5`;
  const socket = openPeerSocket(url, { cookie: `sid=${encodeURIComponent(sessionToken)}` });
  open.push(socket);
  return socket;
}

async function opened(wsUrl: string, sessionToken: string, id: string, peerToken = "tok"): Promise<PeerTestSocket> {
  const socket = peer(wsUrl, sessionToken, id, peerToken);
  expect(JSON.parse(await socket.next(5000))).toEqual({ type: "OPEN" });
  return socket;
}

const frame = async (socket: PeerTestSocket, timeoutMs = 5000) => JSON.parse(await socket.next(timeoutMs));

/** Redis's own view under the test's prefix (the keys of src/cluster/peerjs-lua.ts). */
function redisOf(t: TestApp) {
  const link = t.ctx.ports.redis!;
  return { cmd: link.cmd, key: (name: string) => `${link.prefix}${name}` };
}

describe("PeerJS signalling across two instances", () => {
  test("a peer on A sends an OFFER to a peer on B and gets the ANSWER; candidates arrive in order", async () => {
    const alice = await registerUser(a);
    const bob = await registerUser(b);
    const aliceId = freshId("alice");
    const bobId = freshId("bob");
    const aliceA = await opened(urlA, alice.token, aliceId);
    const bobB = await opened(urlB, bob.token, bobId);
    aliceA.send({ type: "OFFER", dst: bobId, payload: { sdp: { type: "offer", sdp: "v=0 offer" }, type: "media", connectionId: "mc_1" } });
    expect(await frame(bobB)).toEqual({ type: "OFFER", src: aliceId, dst: bobId, payload: { sdp: { type: "offer", sdp: "v=0 offer" }, type: "media", connectionId: "mc_1" } });
    bobB.send({ type: "ANSWER", dst: aliceId, payload: { sdp: { type: "answer", sdp: "v=0 answer" }, type: "media", connectionId: "mc_1" } });
    expect(await frame(aliceA)).toEqual({ type: "ANSWER", src: bobId, dst: aliceId, payload: { sdp: { type: "answer", sdp: "v=0 answer" }, type: "media", connectionId: "mc_1" } });
    // 50 at once: a socket may have at most 64 frames waiting for their session checks (a
    // round trip each on PostgreSQL) before it is closed (src/peerjs/index.ts).
    for (let i = 0; i < 50; i++) aliceA.send({ type: "CANDIDATE", dst: bobId, payload: { candidate: { candidate: `c${i}` } } });
    const got: number[] = [];
    for (let i = 0; i < 50; i++) got.push(Number((await frame(bobB)).payload.candidate.candidate.slice(1)));
    expect(got).toEqual(Array.from({ length: 50 }, (_, i) => i));
    // A LEAVE crosses too, and nothing else arrived at either side.
    bobB.send({ type: "LEAVE", dst: aliceId });
    expect(await frame(aliceA)).toEqual({ type: "LEAVE", src: bobId, dst: aliceId });
    expect(await roundTrip(aliceA, aliceId)).toEqual([]);
    expect(await roundTrip(bobB, bobId)).toEqual([]);
  });

  test("an id held on A is taken on B for anyone else; its own token takes it over from B, and frames follow it", async () => {
    const carol = await registerUser(a);
    const mallory = await registerUser(b);
    const carolId = freshId("carol");
    const first = await opened(urlA, carol.token, carolId, "carol-token");
    const thief = peer(urlB, mallory.token, carolId, "carol-token");
    expect(await frame(thief)).toEqual({ type: "ID-TAKEN", payload: { msg: "ID is taken" } });
    expect(await closeOf(thief)).toMatch(/^closed/);
    const wrongToken = peer(urlB, carol.token, carolId, "other-token");
    expect(await frame(wrongToken)).toEqual({ type: "ID-TAKEN", payload: { msg: "ID is taken" } });
    // The same browser reconnecting through B: no OPEN (as peer), and frames for the id now go there.
    const again = peer(urlB, carol.token, carolId, "carol-token");
    expect(await again.opened).toBe(true);
    const dave = await registerUser(a);
    const daveId = freshId("dave");
    const daveA = await opened(urlA, dave.token, daveId);
    await until(async () => {
      daveA.send({ type: "CANDIDATE", dst: carolId, payload: { probe: true } });
      return (await again.drain(50)).length > 0;
    }, "frames for the id reaching its new socket on B");
    expect(await roundTrip(again, carolId)).toEqual([]);
    expect(first.isClosed()).toBe(false);
  });

  test("a message for an absent id waits, and reaches it when it connects on the other instance, after OPEN", async () => {
    const erin = await registerUser(a);
    const frank = await registerUser(b);
    const erinId = freshId("erin");
    const frankId = freshId("frank");
    const erinA = await opened(urlA, erin.token, erinId);
    for (let i = 0; i < 3; i++) erinA.send({ type: "OFFER", dst: frankId, payload: { n: i } });
    expect(await roundTrip(erinA, erinId)).toEqual([]);
    await a.ctx.ports.settled();
    const frankB = peer(urlB, frank.token, frankId);
    expect(await frame(frankB)).toEqual({ type: "OPEN" });
    for (let i = 0; i < 3; i++) expect(await frame(frankB)).toEqual({ type: "OFFER", src: erinId, dst: frankId, payload: { n: i } });
    const { cmd, key } = redisOf(a);
    expect(await cmd.exists(key(`pj:q:${frankId}`))).toBe(0);
  });

  test("a message nobody comes for is answered EXPIRE once, after the expiry, whichever instance sweeps", async () => {
    const gina = await registerUser(b);
    const ginaId = freshId("gina");
    const ginaB = await opened(urlB, gina.token, ginaId);
    const nobody = freshId("nobody");
    ginaB.send({ type: "OFFER", dst: nobody, payload: 1 });
    ginaB.send({ type: "CANDIDATE", dst: nobody, payload: 2 });
    const started = Date.now();
    expect(await frame(ginaB, DEFAULT_PEER_OPTIONS.expireTimeoutMs + 5000)).toEqual({ type: "EXPIRE", src: nobody, dst: ginaId });
    expect(Date.now() - started).toBeGreaterThanOrEqual(DEFAULT_PEER_OPTIONS.expireTimeoutMs - 100);
    expect(await roundTrip(ginaB, ginaId)).toEqual([]);
  }, 30_000);

  test("the caps count both instances: one session holds 4 peers over A and B, and a closed one frees its place", async () => {
    const hana = await registerUser(a);
    const held = [
      await opened(urlA, hana.token, freshId("hana")),
      await opened(urlB, hana.token, freshId("hana")),
      await opened(urlA, hana.token, freshId("hana")),
      await opened(urlB, hana.token, freshId("hana")),
    ];
    for (const url of [urlA, urlB]) {
      const fifth = peer(url, hana.token, freshId("hana"));
      expect(await frame(fifth)).toEqual({ type: "ERROR", payload: { msg: "Too many calls open in this browser (at most 4 at once). Close one, or another tab, and try again." } });
      expect(await closeOf(fifth)).toMatch(/^closed/);
    }
    held[1]!.close();
    await closeOf(held[1]!);
    await until(async () => {
      const { cmd, key } = redisOf(a);
      return Number(await cmd.get(key(`pj:n:u:${hana.user.id}`))) === 3;
    }, "the closed peer's place given back");
    await opened(urlA, hana.token, freshId("hana"));
  });

  test("what waits for absent ids stays within the bounds whoever sends it, from both instances", async () => {
    const ivan = await registerUser(a);
    const ivanA = await opened(urlA, ivan.token, freshId("ivan"));
    const ivanB = await opened(urlB, ivan.token, freshId("ivan"));
    const { cmd, key } = redisOf(a);
    const waiting = async (dsts: string[]) => {
      let n = 0;
      for (const dst of dsts) n += await cmd.llen(key(`pj:q:${dst}`));
      return n;
    };
    /** Counts the EXPIREs each socket is answered until `kept + EXPIREs` makes `sent`. */
    const settle = async (dsts: string[], sent: number) => {
      let expired = 0;
      let kept = 0;
      await until(async () => {
        for (const socket of [ivanA, ivanB]) expired += (await socket.drain(20)).filter((text) => text.includes('"EXPIRE"')).length;
        kept = await waiting(dsts);
        return kept + expired === sent;
      }, "every OFFER kept or answered EXPIRE");
      return { kept, expired };
    };

    // 24 OFFERs of 60 KB to absent ids, half from each instance: one user's 512 KiB holds 8.
    const sixty = { sdp: "x".repeat(60 * 1024) };
    const targets = Array.from({ length: 24 }, () => freshId("away"));
    for (const [i, dst] of targets.entries()) (i % 2 === 0 ? ivanA : ivanB).send({ type: "OFFER", dst, payload: sixty });
    const big = await settle(targets, 24);
    expect(big).toEqual({ kept: 8, expired: 16 });
    const charged = Number(await cmd.get(key(`pj:qb:${ivan.user.id}`)));
    expect(charged).toBeLessThanOrEqual(DEFAULT_PEER_OPTIONS.maxQueuedBytesPerUser);
    expect(Number(await cmd.get(key("pj:qb")))).toBeGreaterThanOrEqual(charged);

    // One absent id holds 16 messages, whichever instance they came through.
    const one = freshId("one");
    for (let i = 0; i < 20; i++) (i % 2 === 0 ? ivanA : ivanB).send({ type: "CANDIDATE", dst: one, payload: i });
    expect(await settle([one], 20)).toEqual({ kept: 16, expired: 4 });

    // All of it expires, and the budget is whole again.
    await until(async () => (await cmd.exists(key(`pj:qb:${ivan.user.id}`))) === 0, "the queued messages expiring", 20_000);
    expect(await waiting([...targets, one])).toBe(0);
  }, 40_000);

  test("a dead instance's peers are let go: their ids come free, their places in the caps too, and a message to one is answered", async () => {
    const ports = engine.instance();
    const c = makeTestApp(ENV, { ports, dataDir: a.dataDir });
    try {
      await Promise.all([ports.ready(), c.ready]);
      const urlC = c.listen().wsUrl;
      const jon = await registerUser(a);
      const kim = await registerUser(a);
      const jonId = freshId("jon");
      const jonC = await opened(urlC, jon.token, jonId, "jon-token");
      const kimA = await opened(urlA, kim.token, freshId("kim"));
      const { cmd, key } = redisOf(a);
      expect(Number(await cmd.get(key(`pj:n:u:${jon.user.id}`)))).toBe(1);
      expect((await frame(peer(urlA, kim.token, jonId, "kim-token"))).type).toBe("ID-TAKEN");
      // C stops answering Redis: its heartbeat ends and it is marked dead, as shutdown does (a
      // kill -9 is the same once its heartbeat is older than the TTL). Its socket stays open.
      await ports.close();
      // At once, a message to C's peer is answered as peer answers one to a peer that went away:
      // LEAVE when the id is still listed under the dead instance (as a failed send), else EXPIRE
      // once it waited in vain.
      kimA.send({ type: "OFFER", dst: jonId, payload: "are you there?" });
      expect(["LEAVE", "EXPIRE"]).toContain((await frame(kimA, DEFAULT_PEER_OPTIONS.expireTimeoutMs + 5000)).type);
      await until(async () => (await cmd.exists(key(`pj:id:${jonId}`))) === 0, "A or B letting go of C's peer");
      expect(await cmd.exists(key(`pj:n:u:${jon.user.id}`))).toBe(0);
      // Once let go, a message to the id waits as for anyone absent, and is answered EXPIRE.
      kimA.send({ type: "OFFER", dst: jonId, payload: "hello?" });
      expect(await frame(kimA, DEFAULT_PEER_OPTIONS.expireTimeoutMs + 5000)).toEqual({ type: "EXPIRE", src: jonId, dst: expect.any(String) });
      // The id is free for someone else, on a live instance.
      expect(await frame(peer(urlB, kim.token, jonId, "kim-token"))).toEqual({ type: "OPEN" });
      expect(jonC.isClosed()).toBe(false);
    } finally {
      await c.close();
    }
  }, 40_000);

  test("an instance Redis forgot (reaped while it stalled, or Redis restarted empty) writes its peers back; one taken meanwhile is closed", async () => {
    const lena = await registerUser(a);
    const milo = await registerUser(b);
    const kept = freshId("kept");
    const lost = freshId("lost");
    const keptB = await opened(urlB, lena.token, kept, "lena");
    const lostB = await opened(urlB, lena.token, lost, "lena");
    const { cmd, key } = redisOf(a);
    const nodes = (await cmd.smembers(key("pj:hosts"))).filter((node) => node.startsWith(`${b.ctx.ports.redis!.instanceId}.`));
    // Forget B's peers as a reaper would, and let someone else take one of the ids meanwhile.
    for (const node of nodes) await cmd.eval(peerScripts.pjReleaseNode, 0, key(""), node);
    expect(await cmd.exists(key(`pj:id:${kept}`))).toBe(0);
    await opened(urlA, milo.token, lost, "milo");
    await until(async () => (await cmd.hget(key(`pj:id:${kept}`), "uid")) === String(lena.user.id), "B writing its peer back");
    expect(await closeOf(lostB, 5000)).toMatch(/^closed/);
    expect(Number(await cmd.get(key(`pj:n:u:${lena.user.id}`)))).toBe(1);
    // The id written back is taken for others again, and still reachable on B.
    expect((await frame(peer(urlA, milo.token, kept, "milo"))).type).toBe("ID-TAKEN");
    const miloA = await opened(urlA, milo.token, freshId("milo"));
    miloA.send({ type: "CANDIDATE", dst: kept, payload: "still there" });
    expect(await frame(keptB)).toMatchObject({ type: "CANDIDATE", dst: kept, payload: "still there" });
  });

  test("a block holds across instances: the blocked person's OFFER to the blocker's id on the other instance is answered as for an id nobody holds", async () => {
    const nina = await registerUser(a);
    const omar = await registerUser(b);
    const ninaId = freshId("nina");
    const omarId = freshId("omar");
    const ninaA = await opened(urlA, nina.token, ninaId);
    const omarB = await opened(urlB, omar.token, omarId);
    omarB.send({ type: "OFFER", dst: ninaId, payload: "before" });
    expect((await frame(ninaA)).payload).toBe("before");
    // Blocked through the instance holding Nina's peer: blocks are not yet shared between
    // instances (DECISIONS, issue 23), and the holder's copy is the one that decides.
    expect((await a.call("POST", "/api/blocks", { token: nina.token, json: { userId: omar.user.id } })).status).toBe(201);
    omarB.send({ type: "OFFER", dst: ninaId, payload: "after" });
    expect(await frame(omarB, DEFAULT_PEER_OPTIONS.expireTimeoutMs + 5000)).toEqual({ type: "EXPIRE", src: ninaId, dst: omarId });
    expect(await roundTrip(ninaA, ninaId)).toEqual([]);
  }, 30_000);
});
