// What waits for absent peers is bounded whatever clients send (finding 2 of issue 9: 32,150
// queued 60 KB OFFERs took the server to 914 MB). Counted through the registry, not the RSS.
import { describe, expect, test } from "bun:test";
import { connectPeer, peerFrame } from "../../src/peerjs/connection.ts";
import { DEFAULT_PEER_OPTIONS } from "../../src/peerjs/options.ts";
import { PeerRegistry, type PeerSocket } from "../../src/peerjs/registry.ts";

const { maxQueuedPerPeer, maxQueuedBytesPerUser, maxQueuedBytes, expireTimeoutMs } = DEFAULT_PEER_OPTIONS;
const SIXTY_KB = { sdp: "x".repeat(60 * 1024) };

/** Keeps only the types and sources of what it is sent: the payloads here are large. */
class CountingSocket implements PeerSocket {
  received: { type: string; src?: string }[] = [];
  send(text: string): boolean {
    const { type, src } = JSON.parse(text) as { type: string; src?: string };
    this.received.push({ type, src });
    return true;
  }
  close(): void {}
}

function join(registry: PeerRegistry, id: string, userId: number) {
  const socket = new CountingSocket();
  const owner = { userId, sessionId: `s${userId}`, address: `10.0.${userId >> 8}.${userId & 255}` };
  const client = connectPeer(registry, DEFAULT_PEER_OPTIONS, socket, { id, token: "tok", key: "peerjs" }, owner, 0);
  if (!client) throw new Error(`${id} was refused`);
  socket.received = [];
  return { client, socket };
}

/** Counts what waits for `ids` by taking it, so the count does not rely on the registry's own. */
function takeAll(registry: PeerRegistry, ids: string[]): number {
  return ids.reduce((sum, id) => sum + registry.takeQueue(id).length, 0);
}

describe("queues for absent peers", () => {
  test("30,000 queued 60 KB OFFERs to absent ids stay within one user's byte budget, each refused one answered EXPIRE", () => {
    const registry = new PeerRegistry();
    const alice = join(registry, "alice", 1);
    const ids = Array.from({ length: 30_000 }, (_, i) => `absent${i}`);
    for (const dst of ids) peerFrame(registry, alice.client, { type: "OFFER", dst, payload: SIXTY_KB }, 0);

    expect(registry.queues.bytes).toBeLessThanOrEqual(maxQueuedBytesPerUser);
    expect(registry.queues.bytesOf(1)).toBe(registry.queues.bytes);
    const kept = registry.queues.messages;
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThanOrEqual(Math.floor(maxQueuedBytesPerUser / (60 * 1024)));
    expect(alice.socket.received.length).toBe(30_000 - kept);
    expect(alice.socket.received.at(-1)).toEqual({ type: "EXPIRE", src: "absent29999" });
    expect(takeAll(registry, ids)).toBe(kept);
    expect([registry.queues.bytes, registry.queues.messages, registry.queues.destinations]).toEqual([0, 0, 0]);
  });

  test("100,000 empty CANDIDATEs are bounded too: each message is charged its overhead", () => {
    const registry = new PeerRegistry();
    const alice = join(registry, "alice", 1);
    const ids = Array.from({ length: 100_000 }, (_, i) => `nobody${i}`);
    for (const dst of ids) peerFrame(registry, alice.client, { type: "CANDIDATE", dst }, 0);
    expect(registry.queues.bytes).toBeLessThanOrEqual(maxQueuedBytesPerUser);
    expect(registry.queues.messages).toBeLessThan(maxQueuedBytesPerUser / 128);
    expect(takeAll(registry, ids)).toBeLessThan(maxQueuedBytesPerUser / 128);
  });

  test("many users together never queue more than the server's byte budget", () => {
    const registry = new PeerRegistry();
    const ids: string[] = [];
    for (let user = 1; user <= 40; user++) {
      const sender = join(registry, `sender${user}`, user);
      for (let i = 0; i < 20; i++) {
        ids.push(`gone${user}-${i}`);
        peerFrame(registry, sender.client, { type: "OFFER", dst: ids.at(-1), payload: SIXTY_KB }, 0);
      }
      expect(registry.queues.bytes).toBeLessThanOrEqual(maxQueuedBytes);
    }
    // The budget was reached: 40 users with 20 offers each ask for about 48 MB.
    expect(registry.queues.bytes).toBeGreaterThan(maxQueuedBytes - 2 * 61 * 1024);
    expect(takeAll(registry, ids)).toBeLessThanOrEqual(Math.floor(maxQueuedBytes / (60 * 1024)));
  });

  test("one absent id holds 16 messages; the next is answered EXPIRE, and the 16 arrive in order on connect", () => {
    const registry = new PeerRegistry();
    const alice = join(registry, "alice", 1);
    for (let i = 0; i < maxQueuedPerPeer + 4; i++) peerFrame(registry, alice.client, { type: "CANDIDATE", dst: "carol", payload: i }, 0);
    expect(alice.socket.received).toEqual(Array.from({ length: 4 }, () => ({ type: "EXPIRE", src: "carol" })));
    const sent: unknown[] = [];
    const carolSocket = { send: (text: string) => sent.push(JSON.parse(text)) > 0, close() {} };
    connectPeer(registry, DEFAULT_PEER_OPTIONS, carolSocket, { id: "carol", token: "t", key: "peerjs" }, { userId: 2, sessionId: "s2", address: "b" }, 0);
    expect(sent[0]).toEqual({ type: "OPEN" });
    expect(sent.slice(1)).toEqual(Array.from({ length: maxQueuedPerPeer }, (_, i) => ({ type: "CANDIDATE", src: "alice", dst: "carol", payload: i })));
    expect(registry.queues.bytes).toBe(0);
  });

  test("a full budget frees itself when its messages expire, and the user may queue again", () => {
    const registry = new PeerRegistry();
    const alice = join(registry, "alice", 1);
    for (let i = 0; i < 20; i++) peerFrame(registry, alice.client, { type: "OFFER", dst: `away${i}`, payload: SIXTY_KB }, 0);
    expect(registry.queues.bytesOf(1)).toBeGreaterThan(maxQueuedBytesPerUser - 61 * 1024);
    expect(registry.takeExpired(expireTimeoutMs, expireTimeoutMs).length).toBeGreaterThan(0);
    expect([registry.queues.bytes, registry.queues.bytesOf(1), registry.queues.messages]).toEqual([0, 0, 0]);
    alice.socket.received = [];
    peerFrame(registry, alice.client, { type: "OFFER", dst: "later", payload: SIXTY_KB }, expireTimeoutMs);
    expect(alice.socket.received).toEqual([]);
    expect(registry.queues.messages).toBe(1);
  });

  test("one user's full budget does not refuse another user's offer", () => {
    const registry = new PeerRegistry();
    const alice = join(registry, "alice", 1);
    const bob = join(registry, "bob", 2);
    for (let i = 0; i < 20; i++) peerFrame(registry, alice.client, { type: "OFFER", dst: `far${i}`, payload: SIXTY_KB }, 0);
    peerFrame(registry, bob.client, { type: "OFFER", dst: "dave", payload: { sdp: "v=0" } }, 0);
    expect(bob.socket.received).toEqual([]);
    expect(registry.takeQueue("dave")).toEqual([{ message: { type: "OFFER", src: "bob", dst: "dave", payload: { sdp: "v=0" } }, userId: 2 }]);
  });
});
