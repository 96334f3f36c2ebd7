// Issue 18, item 4: after a block nothing passes between the two over /peerjs either. The blocked
// person's OFFER, ANSWER and CANDIDATE to the blocker's peer id (and the other way) are answered
// exactly as for a peer id nobody holds: queued unseen, then EXPIRE.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { registerUser } from "../support/app.ts";
import { listeningApp } from "../support/listening.ts";
import { openPeerSocket, roundTrip, type PeerTestSocket } from "./client.ts";

setDefaultTimeout(30_000);

const t = listeningApp({ SIGNUP_RATE_LIMIT: "1000" });

let n = 0;
const OPEN = '{"type":"OPEN"}';

/** A signed-in user's peer under a fresh id, once the server said OPEN. */
async function peer(token: string): Promise<{ id: string; socket: PeerTestSocket }> {
  const id = `blk${process.pid}x${++n}`;
  const socket = openPeerSocket(`${t.wsUrl}/peerjs/peerjs?key=peerjs&id=${id}&token=tok&version=1.5.5`, { cookie: `sid=${encodeURIComponent(token)}` });
  expect(await socket.next(3000)).toBe(OPEN);
  return { id, socket };
}

const signals = (dst: string) => [
  { type: "OFFER", dst, payload: { sdp: { type: "offer", sdp: "v=0" }, type: "media", connectionId: "mc_1" } },
  { type: "CANDIDATE", dst, payload: { candidate: { candidate: "candidate:1 1 udp 1 10.0.0.1 5000 typ host" }, type: "media", connectionId: "mc_1" } },
  { type: "ANSWER", dst, payload: { sdp: { type: "answer", sdp: "v=0" }, type: "media", connectionId: "mc_1" } },
];

/**
 * What `from` hears back after sending every signal to `dst`: the first answer (the EXPIRE comes
 * once the queue's expiry time has passed), then anything else before `from`'s own round trip,
 * with the two ids written as "X" and "ME".
 */
async function answersTo(from: { id: string; socket: PeerTestSocket }, dst: string): Promise<string[]> {
  for (const frame of signals(dst)) from.socket.send(frame);
  const heard = [await from.socket.next(20_000), ...(await roundTrip(from.socket, from.id))];
  return heard.map((text) => text.split(dst).join("X").split(from.id).join("ME"));
}

async function blockedPair() {
  const blocker = await registerUser(t);
  const blocked = await registerUser(t);
  const a = await peer(blocker.token);
  const b = await peer(blocked.token);
  // Before the block, signals pass: the control.
  b.socket.send(signals(a.id)[0]);
  expect(JSON.parse(await a.socket.next(2000)).type).toBe("OFFER");
  expect((await t.call("POST", "/api/blocks", { token: blocker.token, json: { userId: blocked.user.id } })).status).toBe(201);
  return { blocker, blocked, a, b };
}

describe("a block on /peerjs", () => {
  test("the blocked person's OFFER, CANDIDATE and ANSWER never reach the blocker, and are answered as for an id nobody holds", async () => {
    const { a, b } = await blockedPair();
    const [toBlocker, toNobody] = await Promise.all([answersTo(b, a.id), (async () => answersTo(await peer((await registerUser(t)).token), `nobody${n}`))()]);
    // b's frames were handled before b's EXPIRE came; a's own round trip ends after anything sent to it.
    expect(await roundTrip(a.socket, a.id)).toEqual([]);
    expect(toBlocker).toEqual(toNobody);
    expect(toBlocker.map((f) => JSON.parse(f).type)).toEqual(["EXPIRE"]);
    for (const p of [a, b]) p.socket.close();
  });

  test("nothing passes the other way either, and a reconnect of the blocked id is not handed what waited", async () => {
    const { blocked, a, b } = await blockedPair();
    for (const frame of signals(b.id)) a.socket.send(frame);
    // Once a's round trip is back, the server has handled its signals; then b's own round trip
    // ends after anything they made it send b.
    expect(await roundTrip(a.socket, a.id)).toEqual([]);
    expect(await roundTrip(b.socket, b.id)).toEqual([]);
    // The blocked browser takes its id over again: the queue it is given holds nothing of the blocker's.
    const again = openPeerSocket(`${t.wsUrl}/peerjs/peerjs?key=peerjs&id=${b.id}&token=tok&version=1.5.5`, { cookie: `sid=${encodeURIComponent(blocked.token)}` });
    expect(await roundTrip(again, b.id)).toEqual([]);
    expect(JSON.parse(await a.socket.next(20_000)).type).toBe("EXPIRE");
    for (const s of [a.socket, b.socket, again]) s.close();
  });

  test("signals pass again after unblocking", async () => {
    const { blocker, blocked, a, b } = await blockedPair();
    expect((await t.call("DELETE", `/api/blocks/${blocked.user.id}`, { token: blocker.token })).status).toBe(204);
    b.socket.send(signals(a.id)[1]);
    expect(JSON.parse(await a.socket.next(2000)).type).toBe("CANDIDATE");
    for (const p of [a, b]) p.socket.close();
  });
});
