// Who holds which peer id, how many each session, account and address holds, and the messages
// waiting for ids that are not connected (peer's Realm). One registry per app instance; the
// socket layer and the sweeps are its only writers.
import { randomUUID } from "node:crypto";
import type { PeerId, RelayedMessage } from "./protocol.ts";
import { MessageQueues, type QueuedMessage, type QueueLimits } from "./queues.ts";
import { DEFAULT_PEER_OPTIONS } from "./options.ts";

/** What the registry needs from a connection, so that it runs without a server in tests. */
export interface PeerSocket {
  /** False when the frame could not be sent (the socket is closed or closing). */
  send(text: string): boolean;
  /** Closes as peer does: a close frame without a status code. */
  close(): void;
}

/** Who opened a peer: what the caps count by. */
export interface PeerOwner {
  userId: number;
  /** The signed-in session (one browser), not its token. */
  sessionId: string;
  address: string;
}

export interface PeerClient {
  readonly id: PeerId;
  readonly token: string;
  /** Only the same user may take the id over with its token. */
  readonly owner: PeerOwner;
  /** The latest socket; a reconnect with the same id and token replaces it. */
  socket: PeerSocket;
  /** Set at creation and by HEARTBEAT only, as in peer. */
  lastPing: number;
}

const ownerKeys = (owner: PeerOwner) => [`session:${owner.sessionId}`, `user:${owner.userId}`, `address:${owner.address}`];

export class PeerRegistry {
  private readonly clients = new Map<PeerId, PeerClient>();
  /** Clients held per session, user and address; keys with none are removed. */
  private readonly held = new Map<string, number>();
  readonly queues: MessageQueues;
  /** ICE_TRANSPORT_POLICY=relay: offers, answers and candidates are passed on with relay addresses only. */
  relayOnly = false;

  /**
   * @param apart whether two users are kept apart (a block either way, answered from memory): a
   *   peer of one is never there for the other.
   */
  constructor(
    limits: QueueLimits = DEFAULT_PEER_OPTIONS,
    private readonly apart: (a: number, b: number) => boolean = () => false,
  ) {
    this.queues = new MessageQueues(limits);
  }

  get size(): number {
    return this.clients.size;
  }

  get(id: PeerId): PeerClient | undefined {
    return this.clients.get(id);
  }

  /** The client holding `id` as `userId` may see it: none when a block keeps the two apart. */
  reachable(id: PeerId, userId: number): PeerClient | undefined {
    const client = this.clients.get(id);
    return client && !this.apart(userId, client.owner.userId) ? client : undefined;
  }

  all(): PeerClient[] {
    return [...this.clients.values()];
  }

  /** How many peers this owner's session, account and address hold now. */
  heldBy(owner: PeerOwner): { session: number; user: number; address: number } {
    const [session = 0, user = 0, address = 0] = ownerKeys(owner).map((key) => this.held.get(key) ?? 0);
    return { session, user, address };
  }

  add(client: PeerClient): void {
    this.clients.set(client.id, client);
    for (const key of ownerKeys(client.owner)) this.held.set(key, (this.held.get(key) ?? 0) + 1);
  }

  /** Removes this client only: an id since taken by someone else stays theirs. */
  remove(client: PeerClient): boolean {
    if (this.clients.get(client.id) !== client) return false;
    this.clients.delete(client.id);
    for (const key of ownerKeys(client.owner)) {
      const left = (this.held.get(key) ?? 1) - 1;
      if (left > 0) this.held.set(key, left);
      else this.held.delete(key);
    }
    return true;
  }

  /** A random id nobody holds, in peer's format (a UUID). */
  freshId(): PeerId {
    let id = randomUUID();
    while (this.clients.has(id)) id = randomUUID();
    return id;
  }

  /** Keeps a message for an absent id, charged to `userId`; false when a bound refused it. */
  enqueue(dst: PeerId, message: RelayedMessage, userId: number, now = Date.now()): boolean {
    return this.queues.add(dst, message, userId, now);
  }

  /** Everything waiting for `id`, in order; the queue is gone afterwards. */
  takeQueue(id: PeerId): QueuedMessage[] {
    return this.queues.take(id);
  }

  clearQueue(id: PeerId): void {
    this.queues.drop(id);
  }

  /** Removes and returns the messages of every queue older than `maxAgeMs`. */
  takeExpired(now: number, maxAgeMs: number): RelayedMessage[] {
    return this.queues.takeExpired(now, maxAgeMs);
  }

  clear(): void {
    this.clients.clear();
    this.held.clear();
    this.queues.clear();
  }
}
