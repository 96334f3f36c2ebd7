// Who holds which peer id, and the messages waiting for ids that are not connected (peer's
// Realm). One registry per app instance; the socket layer and the sweeps are its only writers.
import { randomUUID } from "node:crypto";
import type { PeerId, RelayedMessage } from "./protocol.ts";

/** What the registry needs from a connection, so that it runs without a server in tests. */
export interface PeerSocket {
  /** False when the frame could not be sent (the socket is closed or closing). */
  send(text: string): boolean;
  /** Closes as peer does: a close frame without a status code. */
  close(): void;
}

export interface PeerClient {
  readonly id: PeerId;
  readonly token: string;
  /** The signed-in user who opened it: only they may take the id over with its token. */
  readonly userId: number;
  /** The latest socket; a reconnect with the same id and token replaces it. */
  socket: PeerSocket;
  /** Set at creation and by HEARTBEAT only, as in peer. */
  lastPing: number;
}

interface MessageQueue {
  /** Expiry counts from here: the queue's creation, since it is deleted once read. */
  createdAt: number;
  messages: RelayedMessage[];
}

export class PeerRegistry {
  private readonly clients = new Map<PeerId, PeerClient>();
  private readonly queues = new Map<PeerId, MessageQueue>();

  get size(): number {
    return this.clients.size;
  }

  get(id: PeerId): PeerClient | undefined {
    return this.clients.get(id);
  }

  all(): PeerClient[] {
    return [...this.clients.values()];
  }

  add(client: PeerClient): void {
    this.clients.set(client.id, client);
  }

  /** Removes this client only: an id since taken by someone else stays theirs. */
  remove(client: PeerClient): boolean {
    if (this.clients.get(client.id) !== client) return false;
    this.clients.delete(client.id);
    return true;
  }

  /** A random id nobody holds, in peer's format (a UUID). */
  freshId(): PeerId {
    let id = randomUUID();
    while (this.clients.has(id)) id = randomUUID();
    return id;
  }

  enqueue(dst: PeerId, message: RelayedMessage, now = Date.now()): void {
    const queue = this.queues.get(dst) ?? { createdAt: now, messages: [] };
    queue.messages.push(message);
    this.queues.set(dst, queue);
  }

  /** Everything waiting for `id`, in order; the queue is gone afterwards. */
  takeQueue(id: PeerId): RelayedMessage[] {
    const messages = this.queues.get(id)?.messages ?? [];
    this.queues.delete(id);
    return messages;
  }

  clearQueue(id: PeerId): void {
    this.queues.delete(id);
  }

  /** Removes and returns the messages of every queue older than `maxAgeMs`. */
  takeExpired(now: number, maxAgeMs: number): RelayedMessage[] {
    const expired: RelayedMessage[] = [];
    for (const [id, queue] of this.queues) {
      if (now - queue.createdAt < maxAgeMs) continue;
      expired.push(...queue.messages);
      this.queues.delete(id);
    }
    return expired;
  }

  clear(): void {
    this.clients.clear();
    this.queues.clear();
  }
}
