// The caps on peers, without a server: per session (PEER_CAP, 4), per account over all its
// sessions, per address over all accounts; the server-wide limit stays peer's.
import { describe, expect, test } from "bun:test";
import { connectPeer, peerClosed, peerFrame } from "../../src/peerjs/connection.ts";
import { DEFAULT_PEER_OPTIONS, type PeerOptions } from "../../src/peerjs/options.ts";
import { PeerRegistry, type PeerOwner } from "../../src/peerjs/registry.ts";
import { FakeSocket } from "./fake-socket.ts";

let ids = 0;

function attempt(registry: PeerRegistry, owner: PeerOwner, options: PeerOptions = DEFAULT_PEER_OPTIONS, id = `peer${++ids}`) {
  const socket = new FakeSocket();
  const client = connectPeer(registry, options, socket, { id, token: "tok", key: "peerjs" }, owner, 0);
  return { client, socket };
}

const refusal = (text: string) => [{ type: "ERROR", payload: { msg: expect.stringContaining(text) } }];

describe("peers per session, account and address", () => {
  test("5,000 attempts from one session: four are opened, the rest refused with a readable ERROR and closed", () => {
    const registry = new PeerRegistry();
    const owner = { userId: 1, sessionId: "one", address: "10.0.0.1" };
    const results = Array.from({ length: 5000 }, () => attempt(registry, owner));
    expect(results.filter((r) => r.client).length).toBe(4);
    for (const { socket } of results.slice(4)) {
      expect(socket.sent).toEqual(refusal("Too many calls open in this browser (at most 4 at once)"));
      expect(socket.closed).toBe(true);
    }
    expect(registry.size).toBe(4);
    const other = attempt(registry, { userId: 2, sessionId: "two", address: "10.0.0.2" });
    expect(other.socket.sent).toEqual([{ type: "OPEN" }]);
  });

  test("signing in again buys no more: one account holds at most 10 peers over all its sessions", () => {
    const registry = new PeerRegistry();
    const opened = Array.from({ length: 8 }, (_, i) => attempt(registry, { userId: 1, sessionId: `login${i}`, address: "10.0.0.1" }));
    expect(opened.filter((r) => r.client).length).toBe(8);
    const more = Array.from({ length: 4 }, () => attempt(registry, { userId: 1, sessionId: "login8", address: "10.0.0.1" }));
    expect(more.map((r) => r.client !== null)).toEqual([true, true, false, false]);
    expect(more[2]!.socket.sent).toEqual(refusal("Too many calls open on this account (at most 10 at once)"));
  });

  test("one address holds at most 50 peers over all its accounts", () => {
    const registry = new PeerRegistry();
    const results = Array.from({ length: 60 }, (_, i) => attempt(registry, { userId: i + 1, sessionId: `s${i}`, address: "192.0.2.7" }));
    expect(results.filter((r) => r.client).length).toBe(50);
    expect(results[50]!.socket.sent).toEqual(refusal("Too many calls open from this network address (at most 50 at once)"));
    expect(attempt(registry, { userId: 99, sessionId: "elsewhere", address: "192.0.2.8" }).client).not.toBeNull();
  });

  test("closing a peer, or its LEAVE without destination, frees its place in every count", () => {
    const registry = new PeerRegistry();
    const owner = { userId: 1, sessionId: "one", address: "10.0.0.1" };
    const four = Array.from({ length: 4 }, () => attempt(registry, owner));
    expect(attempt(registry, owner).client).toBeNull();
    peerClosed(registry, four[0]!.client!, four[0]!.socket);
    peerFrame(registry, four[1]!.client!, { type: "LEAVE" });
    expect(registry.heldBy(owner)).toEqual({ session: 2, user: 2, address: 2 });
    expect([attempt(registry, owner).client, attempt(registry, owner).client].every(Boolean)).toBe(true);
  });

  test("taking one's own id over with its token is not a new peer, even at the cap", () => {
    const registry = new PeerRegistry();
    const owner = { userId: 1, sessionId: "one", address: "10.0.0.1" };
    for (let i = 0; i < 4; i++) attempt(registry, owner, DEFAULT_PEER_OPTIONS, `mine${i}`);
    const again = attempt(registry, owner, DEFAULT_PEER_OPTIONS, "mine0");
    expect(again.client).not.toBeNull();
    expect([again.socket.sent, again.socket.closed]).toEqual([[], false]);
    expect(registry.heldBy(owner).session).toBe(4);
  });

  test("past the server-wide limit everyone gets peer's own text, whoever they are", () => {
    const registry = new PeerRegistry();
    const options = { ...DEFAULT_PEER_OPTIONS, concurrentLimit: 3 };
    for (let i = 0; i < 3; i++) attempt(registry, { userId: i, sessionId: `s${i}`, address: `a${i}` }, options);
    const late = attempt(registry, { userId: 9, sessionId: "s9", address: "a9" }, options);
    expect(late.socket.sent).toEqual([{ type: "ERROR", payload: { msg: "Server has reached its concurrent user limit" } }]);
  });
});
