// Finding 2 of issue 9 on the real app: one session cannot fill the signalling server, and a
// flood of PeerJS frames is cut at the socket event rate (20 a second, bursts of 40).
import { describe, expect, test } from "bun:test";
import { TokenBuckets } from "../../src/http/rate-limit.ts";
import { registerUser } from "../support/app.ts";
import { listeningApp } from "../support/listening.ts";
import { until } from "../support/until.ts";
import { closeOf, openPeerSocket, roundTrip, type PeerTestSocket } from "./client.ts";

const t = listeningApp();
// The default rate (20 a second, bursts of 40) on a clock the test moves: what the bucket allows
// does not depend on how fast a loaded machine handles the frames.
const held = listeningApp({ SOCKET_RATE_LIMIT: "20:40" });
let clockMs = 0;
held.ctx.limits.socketEvents = new TokenBuckets(20, 40, () => clockMs);
const two = listeningApp({ PEER_CAP: "2" });

let ids = 0;
const peerUrl = (id = `limit${++ids}`, peerToken = "tok", wsUrl = t.wsUrl) => `${wsUrl}/peerjs/peerjs?key=peerjs&id=${id}&token=${peerToken}&version=1.5.5`;
const cookie = (token: string) => ({ cookie: `sid=${encodeURIComponent(token)}` });

/** Opens a peer and returns it with its first frame's text ("none" if nothing came in time). */
async function attempt(token: string, id?: string, peerToken?: string, wsUrl = t.wsUrl): Promise<{ socket: PeerTestSocket; first: string }> {
  const socket = openPeerSocket(peerUrl(id, peerToken, wsUrl), cookie(token));
  const first = await socket.next(5000).catch(() => "none");
  return { socket, first };
}

const OPEN = '{"type":"OPEN"}';

const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

/**
 * Waits until `held` has dropped `count` more PeerJS frames than before `send` (each frame is
 * either relayed or dropped and counted, in the order sent), so every frame sent is accounted for.
 */
async function dropped(count: number, send: () => void): Promise<void> {
  const refused = held.ctx.metrics.socketRefusals.peerjs;
  const target = refused.value + count;
  send();
  await until(() => refused.value >= target, `${count} frames dropped by the event rate`);
  expect(refused.value).toBe(target);
}

/** The next `count` frames of `socket`. */
async function frames(socket: PeerTestSocket, count: number): Promise<string[]> {
  const got: string[] = [];
  while (got.length < count) got.push(await socket.next(10_000));
  return got;
}

describe("peers per session", () => {
  test("5,000 peer attempts from one session are refused after the fourth, and another user still connects", async () => {
    const { token } = await registerUser(t);
    const kept: PeerTestSocket[] = [];
    for (let i = 0; i < 4; i++) {
      const { socket, first } = await attempt(token);
      expect(first).toBe(OPEN);
      kept.push(socket);
    }
    const answers = new Map<string, number>();
    let stillOpen = 0;
    // 4,996 more in rounds of 100 at once; every wait inside is bounded.
    for (let round = 0; round < 50; round++) {
      const batch = await Promise.all(
        Array.from({ length: round === 49 ? 96 : 100 }, async () => {
          const { socket, first } = await attempt(token);
          // A refusal closes at once; an accepted peer would stay open, so it is not waited for.
          const closed = first.includes('"ERROR"') ? await closeOf(socket, 3000) : "open";
          socket.close();
          return { first, closed };
        }),
      );
      for (const { first, closed } of batch) {
        answers.set(first, (answers.get(first) ?? 0) + 1);
        if (closed === "open") stillOpen++;
      }
    }
    expect(answers.size).toBe(1);
    const [refusal, count] = [...answers][0] ?? ["none", 0];
    expect(count).toBe(4996);
    expect(JSON.parse(refusal)).toEqual({ type: "ERROR", payload: { msg: expect.stringContaining("at most 4") } });
    expect(stillOpen).toBe(0);

    const other = await registerUser(t);
    const { socket, first } = await attempt(other.token);
    expect(first).toBe(OPEN);
    for (const s of [...kept, socket]) s.close();
  }, 60_000);

  test("a peer that closed makes room for a new one in the same session", async () => {
    const { token } = await registerUser(t);
    const open = await Promise.all([0, 1, 2, 3].map(() => attempt(token)));
    expect(open.map((o) => o.first)).toEqual([OPEN, OPEN, OPEN, OPEN]);
    open[0]!.socket.close();
    await closeOf(open[0]!.socket);
    const next = await attempt(token);
    expect(next.first).toBe(OPEN);
    for (const s of [...open.slice(1), next].map((o) => o.socket)) s.close();
  });

  test("a browser reconnecting with its id and token at the cap takes its peer over, not a fifth", async () => {
    const { token } = await registerUser(t);
    const open = await Promise.all([0, 1, 2, 3].map((i) => attempt(token, `again${ids}-${i}`, "same")));
    expect(open.map((o) => o.first)).toEqual([OPEN, OPEN, OPEN, OPEN]);
    const again = openPeerSocket(peerUrl(`again${ids}-0`, "same"), cookie(token));
    // Peer sends nothing to a takeover; a refusal would be an ERROR and a close, before the round trip.
    expect(await roundTrip(again, `again${ids}-0`)).toEqual([]);
    expect(again.isClosed()).toBe(false);
    for (const s of [...open.map((o) => o.socket), again]) s.close();
  });
});

describe("PEER_CAP", () => {
  test("sets the peers per session: with 2, the third is refused saying so", async () => {
    const { token } = await registerUser(two);
    const results = [];
    for (let i = 0; i < 3; i++) results.push(await attempt(token, undefined, "tok", two.wsUrl));
    expect(results.slice(0, 2).map((r) => r.first)).toEqual([OPEN, OPEN]);
    expect(JSON.parse(results[2]!.first).payload.msg).toContain("at most 2 at once");
    for (const { socket } of results) socket.close();
  });
});

describe("the socket event rate on PeerJS frames", () => {
  test("a CANDIDATE flood is relayed up to the burst and the rate, and the rest is dropped", async () => {
    const alice = await registerUser(held);
    const bob = await registerUser(held);
    const from = await attempt(alice.token, `flood${++ids}`, "tok", held.wsUrl);
    const to = await attempt(bob.token, `target${ids}`, "tok", held.wsUrl);
    expect([from.first, to.first]).toEqual([OPEN, OPEN]);
    const flood = (from_: number, to_: number) => {
      for (let i = from_; i < to_; i++) from.socket.send({ type: "CANDIDATE", dst: `target${ids}`, payload: { i } });
    };
    // The bucket's clock stands still: the burst of 40 goes through, the other 1,960 are dropped.
    await dropped(1960, () => flood(0, 2000));
    const relayed = await frames(to.socket, 40);
    expect(JSON.parse(relayed[0]!)).toEqual({ type: "CANDIDATE", src: `flood${ids}`, dst: `target${ids}`, payload: { i: 0 } });
    // One second on: 20 more (the rate), then dropped again.
    clockMs += 1000;
    await dropped(80, () => flood(2000, 2100));
    relayed.push(...(await frames(to.socket, 20)));
    expect(relayed.map((text) => JSON.parse(text).payload.i)).toEqual([...range(0, 40), ...range(2000, 2020)]);
    // Someone else's frames still go through at once.
    to.socket.send({ type: "OFFER", dst: `flood${ids}`, payload: "hello" });
    expect(await from.socket.next()).toBe(`{"type":"OFFER","src":"target${ids}","dst":"flood${ids}","payload":"hello"}`);
    from.socket.close();
    to.socket.close();
  });

  test("frames peer would ignore count against the same bucket", async () => {
    const alice = await registerUser(held);
    const bob = await registerUser(held);
    const from = await attempt(alice.token, `junk${++ids}`, "tok", held.wsUrl);
    const to = await attempt(bob.token, `junkto${ids}`, "tok", held.wsUrl);
    // 40 junk frames take the burst; the other 160 and the OFFER after them are dropped (an OFFER
    // relayed would leave the count at 160).
    await dropped(161, () => {
      for (let i = 0; i < 200; i++) from.socket.send(i % 2 ? "not json" : { type: "NOPE" });
      from.socket.send({ type: "OFFER", dst: `junkto${ids}`, payload: "after the junk" });
    });
    from.socket.close();
    to.socket.close();
  });
});

describe("one bucket per user for /ws and /peerjs", () => {
  test("a user who spent the bucket on /ws events has no PeerJS frame relayed until it refills", async () => {
    const alice = await registerUser(held);
    const bob = await registerUser(held);
    const from = await attempt(alice.token, `spent${++ids}`, "tok", held.wsUrl);
    const to = await attempt(bob.token, `spentto${ids}`, "tok", held.wsUrl);
    expect([from.first, to.first]).toEqual([OPEN, OPEN]);
    // What dispatching a /ws event does: take from the user's bucket (here all 40 of its tokens).
    for (let i = 0; i < 40; i++) expect(held.ctx.limits.socketEvents.take(alice.user.id)).toBe(true);
    await dropped(1, () => from.socket.send({ type: "OFFER", dst: `spentto${ids}`, payload: "dropped" }));
    // One token refills in 1/20 s; the first frame bob gets is the one sent after it.
    clockMs += 50;
    from.socket.send({ type: "OFFER", dst: `spentto${ids}`, payload: "refilled" });
    expect(await to.socket.next()).toBe(`{"type":"OFFER","src":"spent${ids}","dst":"spentto${ids}","payload":"refilled"}`);
    from.socket.close();
    to.socket.close();
  });
});
