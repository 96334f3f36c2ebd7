// At most `running` image decodes at a time over the whole process, at most one per owner (so
// one account never holds every slot), and a bounded wait: past it the upload gets 503 busy
// with Retry-After instead of waiting behind someone else's pictures. When a slot frees, the
// oldest waiting job of an owner with nothing running goes next.
import { busy } from "../http/errors.ts";

export interface DecodeLimits {
  /** Decodes at once: each may hold a 40-megapixel frame (160 MB) in memory. */
  running: number;
  /** Jobs waiting over everyone. */
  waiting: number;
  /** Jobs one owner may have waiting. */
  waitingPerOwner: number;
}

export const DEFAULT_DECODE_LIMITS: DecodeLimits = { running: 2, waiting: 32, waitingPerOwner: 4 };

const RETRY_SECONDS = 5;

interface Waiter {
  owner: string;
  start: () => void;
}

export class DecodeQueue {
  private readonly active = new Map<string, number>();
  private activeCount = 0;
  private readonly waiters: Waiter[] = [];

  constructor(readonly limits: DecodeLimits = DEFAULT_DECODE_LIMITS) {}

  /** Runs `job` when a slot is free for `owner`; throws 503 busy at once when the wait is full. */
  async run<T>(owner: string, job: () => Promise<T>): Promise<T> {
    // A waiter's slot is claimed for it by next(), before it resumes, so no one slips in between.
    if (this.canStart(owner)) this.claim(owner);
    else await this.wait(owner);
    try {
      return await job();
    } finally {
      const left = (this.active.get(owner) ?? 1) - 1;
      if (left > 0) this.active.set(owner, left);
      else this.active.delete(owner);
      this.activeCount -= 1;
      this.next();
    }
  }

  private claim(owner: string): void {
    this.active.set(owner, (this.active.get(owner) ?? 0) + 1);
    this.activeCount += 1;
  }

  get stats() {
    return { running: this.activeCount, waiting: this.waiters.length };
  }

  private canStart(owner: string): boolean {
    return this.activeCount < this.limits.running && !this.active.has(owner);
  }

  private wait(owner: string): Promise<void> {
    const mine = this.waiters.filter((w) => w.owner === owner).length;
    if (mine >= this.limits.waitingPerOwner) {
      throw busy("Your earlier pictures are still being processed. Please wait a moment before sending more.", RETRY_SECONDS);
    }
    if (this.waiters.length >= this.limits.waiting) {
      throw busy("The server is processing many pictures right now. Please try again in a few seconds.", RETRY_SECONDS);
    }
    return new Promise((start) => this.waiters.push({ owner, start }));
  }

  private next(): void {
    const at = this.waiters.findIndex((w) => this.canStart(w.owner));
    if (at < 0) return;
    const [waiter] = this.waiters.splice(at, 1);
    this.claim(waiter!.owner);
    waiter!.start();
  }
}

/** One queue for the process: libvips' threads and memory are per process. */
export const sharedDecodeQueue = new DecodeQueue();
