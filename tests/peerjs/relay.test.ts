// The signalling core without a server: fake sockets show what peer's sockets rarely let a test
// provoke (a send that fails, a client that falls silent) and where ours deliberately differs.
import { describe, expect, test } from "bun:test";
import { connectPeer, peerClosed, peerFrame } from "../../src/peerjs/connection.ts";
import { expireQueued, relay } from "../../src/peerjs/messages.ts";
import { DEFAULT_PEER_OPTIONS } from "../../src/peerjs/options.ts";
import { parseClientMessage } from "../../src/peerjs/protocol.ts";
import { PeerRegistry } from "../../src/peerjs/registry.ts";
import { dropSilent, startSweeps } from "../../src/peerjs/sweeps.ts";
import { afterTimers, clockMovesOn, until } from "../support/until.ts";
import { FakeSocket, ownerOf } from "./fake-socket.ts";


function join(registry: PeerRegistry, id: string, socket = new FakeSocket(), userId = 1, token = "tok") {
  const client = connectPeer(registry, DEFAULT_PEER_OPTIONS, socket, { id, token, key: "peerjs" }, ownerOf(userId), 0);
  if (!client) throw new Error(`${id} was refused: ${JSON.stringify(socket.sent)}`);
  socket.sent = [];
  return { client, socket };
}

describe("relaying", () => {
  test("a send that fails closes the target, forgets it and tells the sender LEAVE", () => {
    const registry = new PeerRegistry();
    const alice = join(registry, "alice");
    const dead = new FakeSocket(false);
    join(registry, "bob", dead);
    peerFrame(registry, alice.client, { type: "OFFER", dst: "bob", payload: 1 });
    expect(dead.closed).toBe(true);
    expect(registry.get("bob")).toBeUndefined();
    expect(alice.socket.sent).toEqual([{ type: "LEAVE", src: "bob", dst: "alice" }]);
  });

  test("two dead sockets do not bounce LEAVE between them forever", () => {
    const registry = new PeerRegistry();
    const a = new FakeSocket(false);
    const b = new FakeSocket(false);
    join(registry, "a", a);
    join(registry, "b", b);
    relay(registry, { type: "OFFER", src: "a", dst: "b" }, 1);
    expect([a.closed, b.closed, registry.size]).toEqual([true, true, 0]);
  });

  test("expired messages give one EXPIRE per sender and destination, none to an absent sender", () => {
    const registry = new PeerRegistry();
    const alice = join(registry, "alice");
    for (const payload of [1, 2]) relay(registry, { type: "OFFER", src: "alice", dst: "carol", payload }, 1, 0);
    relay(registry, { type: "OFFER", src: "ghost", dst: "carol" }, 2, 0);
    expect(registry.takeExpired(4999, 5000)).toEqual([]);
    expireQueued(registry, registry.takeExpired(5000, 5000));
    expect(alice.socket.sent).toEqual([{ type: "EXPIRE", src: "carol", dst: "alice" }]);
    expect(registry.takeQueue("carol")).toEqual([]);
  });
});

describe("connecting and closing", () => {
  test("past the concurrent limit a client is sent peer's ERROR and closed", () => {
    const registry = new PeerRegistry();
    join(registry, "alice");
    const socket = new FakeSocket();
    const client = connectPeer(registry, { ...DEFAULT_PEER_OPTIONS, concurrentLimit: 1 }, socket, { id: "bob", token: "t", key: "peerjs" }, ownerOf(2));
    expect(client).toBeNull();
    expect(socket.sent).toEqual([{ type: "ERROR", payload: { msg: "Server has reached its concurrent user limit" } }]);
    expect(socket.closed).toBe(true);
  });

  test("the replaced socket of a reconnected client closing does not forget the client", () => {
    const registry = new PeerRegistry();
    const first = join(registry, "alice");
    const second = join(registry, "alice");
    peerClosed(registry, first.client, first.socket);
    expect(registry.get("alice")).toBe(second.client);
    peerClosed(registry, second.client, second.socket);
    expect(registry.get("alice")).toBeUndefined();
  });

  test("an old socket closing never frees an id someone else has taken since", () => {
    const registry = new PeerRegistry();
    const old = join(registry, "alice", new FakeSocket(), 1, "one");
    peerFrame(registry, old.client, { type: "LEAVE" });
    const next = join(registry, "alice", new FakeSocket(), 2, "two");
    peerClosed(registry, old.client, old.socket);
    expect(registry.get("alice")).toBe(next.client);
  });

  test("clients silent for the alive timeout are closed with their queues; HEARTBEAT keeps one alive", () => {
    const registry = new PeerRegistry();
    const silent = join(registry, "silent");
    const beating = join(registry, "beating");
    peerFrame(registry, beating.client, { type: "HEARTBEAT" }, 80_000);
    relay(registry, { type: "OFFER", src: "x", dst: "silent" }, 2);
    dropSilent(registry, 90_000, 90_000);
    expect([silent.socket.closed, registry.get("silent")]).toEqual([true, undefined]);
    expect(registry.takeQueue("silent")).toEqual([]);
    expect(registry.queues.bytes).toBe(0);
    expect([beating.socket.closed, registry.get("beating")]).toEqual([false, beating.client]);
  });
});

describe("the sweeps", () => {
  const fast = { ...DEFAULT_PEER_OPTIONS, expireTimeoutMs: 0, cleanupIntervalMs: 5 };

  test("expire queued messages while running, and nothing once stopped", async () => {
    const running = new PeerRegistry();
    const stopRunning = startSweeps(running, fast);
    relay(running, { type: "OFFER", src: "a", dst: "b" }, 1);
    const stopped = new PeerRegistry();
    startSweeps(stopped, fast)();
    relay(stopped, { type: "OFFER", src: "a", dst: "b" }, 1);
    await until(() => running.queues.bytes === 0, "the running sweep expiring the queued OFFER");
    // A tick of the stopped sweeps, had they run on, would fall due before this marker, with the
    // clock past the moment its OFFER was queued.
    await clockMovesOn();
    await afterTimers(fast.cleanupIntervalMs);
    stopRunning();
    expect(running.takeQueue("b")).toEqual([]);
    expect(stopped.takeQueue("b")).toEqual([{ message: { type: "OFFER", src: "a", dst: "b" }, userId: 1 }]);
  });
});

describe("reading frames", () => {
  test("a destination is a non-empty string; other falsy ones mean none, other values are dropped", () => {
    expect(parseClientMessage({ type: "OFFER", dst: "", payload: 1 })).toEqual({ type: "OFFER", dst: undefined, payload: 1 });
    expect(parseClientMessage({ type: "LEAVE", dst: null })).toEqual({ type: "LEAVE", dst: undefined, payload: undefined });
    expect(parseClientMessage({ type: "OFFER", dst: 5 })).toBeNull();
    expect(parseClientMessage({ type: "OFFER", dst: { id: "x" } })).toBeNull();
  });

  test("text and bytes are parsed as peer parses them; anything not an object is ignored", () => {
    expect(parseClientMessage(' {"type":"HEARTBEAT"}')).toEqual({ type: "HEARTBEAT" });
    expect(parseClientMessage(new TextEncoder().encode('{"type":"HEARTBEAT"}'))).toEqual({ type: "HEARTBEAT" });
    for (const frame of [null, 5, true, [1], "hello", "{bad", { type: "OPEN" }, { type: "hasOwnProperty" }]) expect(parseClientMessage(frame)).toBeNull();
  });
});
