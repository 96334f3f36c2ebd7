// Finding 2 of issue 9 on the real app: one session cannot fill the signalling server, and a
// flood of PeerJS frames is cut at the socket event rate (20 a second, bursts of 40).
import { describe, expect, test } from "bun:test";
import { registerUser } from "../support/app.ts";
import { listeningApp } from "../support/listening.ts";
import { closeOf, openPeerSocket, roundTrip, type PeerTestSocket } from "./client.ts";

const t = listeningApp();
// One event a second: slow enough that the bucket cannot refill while a test looks at it.
const slow = listeningApp({ SOCKET_RATE_LIMIT: "1:1" });
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
    const alice = await registerUser(t);
    const bob = await registerUser(t);
    const from = await attempt(alice.token, `flood${++ids}`);
    const to = await attempt(bob.token, `target${ids}`);
    expect([from.first, to.first]).toEqual([OPEN, OPEN]);
    const started = performance.now();
    for (let i = 0; i < 2000; i++) from.socket.send({ type: "CANDIDATE", dst: `target${ids}`, payload: { i } });
    const relayed = await to.socket.drain(600);
    const seconds = (performance.now() - started) / 1000;
    // The burst always gets through; past it, at most the refill over the whole window.
    expect(relayed.length).toBeGreaterThanOrEqual(40);
    expect(relayed.length).toBeLessThanOrEqual(40 + Math.ceil(20 * seconds));
    expect(JSON.parse(relayed[0]!)).toEqual({ type: "CANDIDATE", src: `flood${ids}`, dst: `target${ids}`, payload: { i: 0 } });
    // Someone else's frames still go through at once.
    to.socket.send({ type: "OFFER", dst: `flood${ids}`, payload: "hello" });
    expect(await from.socket.next()).toBe(`{"type":"OFFER","src":"target${ids}","dst":"flood${ids}","payload":"hello"}`);
    from.socket.close();
    to.socket.close();
  });

  test("frames peer would ignore count against the same bucket", async () => {
    const alice = await registerUser(t);
    const bob = await registerUser(t);
    const from = await attempt(alice.token, `junk${++ids}`);
    const to = await attempt(bob.token, `junkto${ids}`);
    for (let i = 0; i < 200; i++) from.socket.send(i % 2 ? "not json" : { type: "NOPE" });
    from.socket.send({ type: "OFFER", dst: `junkto${ids}`, payload: "after the junk" });
    expect(await to.socket.drain(300)).toEqual([]);
    from.socket.close();
    to.socket.close();
  });
});

describe("one bucket per user for /ws and /peerjs", () => {
  test("a user who spent the bucket on /ws events has no PeerJS frame relayed until it refills", async () => {
    const alice = await registerUser(slow);
    const bob = await registerUser(slow);
    const from = await attempt(alice.token, `spent${++ids}`, "tok", slow.wsUrl);
    const to = await attempt(bob.token, `spentto${ids}`, "tok", slow.wsUrl);
    expect([from.first, to.first]).toEqual([OPEN, OPEN]);
    // What dispatching a /ws event does: take from the user's bucket (here its one token).
    expect(slow.ctx.limits.socketEvents.take(alice.user.id)).toBe(true);
    from.socket.send({ type: "OFFER", dst: `spentto${ids}`, payload: "dropped" });
    expect(await to.socket.drain(300)).toEqual([]);
    await Bun.sleep(1000);
    from.socket.send({ type: "OFFER", dst: `spentto${ids}`, payload: "refilled" });
    expect(await to.socket.next()).toBe(`{"type":"OFFER","src":"spent${ids}","dst":"spentto${ids}","payload":"refilled"}`);
    from.socket.close();
    to.socket.close();
  });
});
