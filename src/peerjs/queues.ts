// Messages waiting for ids that are not connected, with the bounds peer lacks: a count per
// destination, a byte budget per sending user and one for the whole server. Whatever clients
// send, what is kept here never passes `maxQueuedBytes`.
import type { PeerId, RelayedMessage } from "./protocol.ts";

export interface QueueLimits {
  maxQueuedPerPeer: number;
  maxQueuedBytesPerUser: number;
  maxQueuedBytes: number;
}

/** A waiting message and the user it is charged to. */
export interface QueuedMessage {
  message: RelayedMessage;
  userId: number;
}

interface Entry extends QueuedMessage {
  bytes: number;
}

interface MessageQueue {
  /** Expiry counts from here: the queue's creation, since it is deleted once read. */
  createdAt: number;
  entries: Entry[];
}

/**
 * What one message is charged: its frame's length plus the objects that hold it, so that even
 * empty messages cannot be queued without limit.
 */
const ENTRY_OVERHEAD_BYTES = 128;

export class MessageQueues {
  private readonly queues = new Map<PeerId, MessageQueue>();
  private readonly userBytes = new Map<number, number>();
  private totalBytes = 0;
  private totalMessages = 0;

  constructor(private readonly limits: QueueLimits) {}

  /** Bytes charged for everything waiting. */
  get bytes(): number {
    return this.totalBytes;
  }

  /** Messages waiting, over all destinations. */
  get messages(): number {
    return this.totalMessages;
  }

  /** Destinations with something waiting. */
  get destinations(): number {
    return this.queues.size;
  }

  bytesOf(userId: number): number {
    return this.userBytes.get(userId) ?? 0;
  }

  /** Keeps `message` for `dst`, charged to `userId`; false (nothing kept) past any bound. */
  add(dst: PeerId, message: RelayedMessage, userId: number, now: number): boolean {
    const queue = this.queues.get(dst);
    if (queue && queue.entries.length >= this.limits.maxQueuedPerPeer) return false;
    const bytes = JSON.stringify(message).length + ENTRY_OVERHEAD_BYTES;
    if (this.bytesOf(userId) + bytes > this.limits.maxQueuedBytesPerUser) return false;
    if (this.totalBytes + bytes > this.limits.maxQueuedBytes) return false;
    const entry = { message, userId, bytes };
    if (queue) queue.entries.push(entry);
    else this.queues.set(dst, { createdAt: now, entries: [entry] });
    this.charge(entry, 1);
    return true;
  }

  /** Everything waiting for `id`, in order; the queue is gone afterwards. */
  take(id: PeerId): QueuedMessage[] {
    const entries = this.queues.get(id)?.entries ?? [];
    this.drop(id);
    return entries.map(({ message, userId }) => ({ message, userId }));
  }

  /** Forgets what waits for `id`. */
  drop(id: PeerId): void {
    for (const entry of this.queues.get(id)?.entries ?? []) this.charge(entry, -1);
    this.queues.delete(id);
  }

  /** Removes and returns the messages of every queue older than `maxAgeMs`. */
  takeExpired(now: number, maxAgeMs: number): RelayedMessage[] {
    const expired: RelayedMessage[] = [];
    for (const [id, queue] of this.queues) {
      if (now - queue.createdAt < maxAgeMs) continue;
      for (const entry of queue.entries) expired.push(entry.message);
      this.drop(id);
    }
    return expired;
  }

  clear(): void {
    this.queues.clear();
    this.userBytes.clear();
    this.totalBytes = 0;
    this.totalMessages = 0;
  }

  private charge(entry: Entry, sign: 1 | -1): void {
    const left = this.bytesOf(entry.userId) + sign * entry.bytes;
    // Users with nothing waiting leave the map, so it never outgrows the queues.
    if (left > 0) this.userBytes.set(entry.userId, left);
    else this.userBytes.delete(entry.userId);
    this.totalBytes += sign * entry.bytes;
    this.totalMessages += sign;
  }
}
