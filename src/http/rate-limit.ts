// In-memory limiters. Keys are a user, a username or an address; counts live in this process,
// which is right for the one-server deployment this product targets.

import { rateLimited } from "./errors.ts";

export const HOUR_MS = 60 * 60_000;

/** Counts events in a fixed window per key: login failures, sign-ups, uploads. */
export class WindowCounter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Seconds until the key may record `amount` more events, or 0 when it may now. */
  retryAfter(key: string, amount = 1): number {
    const entry = this.current(key);
    return entry && entry.count + amount > this.limit ? (entry.start + this.windowMs - this.now()) / 1000 : 0;
  }

  /** Records `amount` events; false (and nothing recorded) if that would pass the limit. */
  take(key: string, amount = 1): boolean {
    const entry = this.current(key) ?? { start: this.now(), count: 0 };
    if (entry.count + amount > this.limit) return false;
    entry.count += amount;
    this.windows.set(key, entry);
    this.sweep();
    return true;
  }

  reset(key: string): void {
    this.windows.delete(key);
  }

  private current(key: string) {
    const entry = this.windows.get(key);
    if (entry && this.now() - entry.start >= this.windowMs) {
      this.windows.delete(key);
      return undefined;
    }
    return entry;
  }

  /** Keeps memory bounded under a flood of distinct keys. */
  private sweep(): void {
    if (this.windows.size < 10_000) return;
    const now = this.now();
    for (const [key, entry] of this.windows) if (now - entry.start >= this.windowMs) this.windows.delete(key);
  }
}

/**
 * Socket events and new connections: `perSecond` on average with bursts up to `burst`, per user.
 * A bucket outlives the socket that used it (reconnecting buys nothing); once it has filled up
 * again it is the same as no bucket, so a sweep drops it and memory holds only recent keys.
 */
export class TokenBuckets {
  private readonly buckets = new Map<number, { tokens: number; at: number }>();
  private lastSweep: number;

  constructor(
    private readonly perSecond: number,
    private readonly burst: number,
    private readonly now: () => number = Date.now,
  ) {
    this.lastSweep = now();
  }

  take(key: number): boolean {
    const now = this.now();
    // At most one sweep per refill time: linear work every few seconds, never per event.
    if (now - this.lastSweep >= this.refillMs) this.sweep();
    // One lookup, and the bucket updated in place: this runs on every socket frame.
    const bucket = this.buckets.get(key);
    const tokens = bucket ? Math.min(this.burst, bucket.tokens + ((now - bucket.at) / 1000) * this.perSecond) : this.burst;
    const allowed = tokens >= 1;
    const left = allowed ? tokens - 1 : tokens;
    if (bucket) {
      bucket.tokens = left;
      bucket.at = now;
    } else this.buckets.set(key, { tokens: left, at: now });
    return allowed;
  }

  /** Whole seconds until `key` may take a token, or 0 when it may now (for Retry-After). */
  retryAfter(key: number): number {
    const tokens = this.tokensAt(key, this.now());
    return tokens >= 1 ? 0 : Math.ceil((1 - tokens) / this.perSecond);
  }

  /** Drops every bucket that has filled up again. */
  sweep(): void {
    const now = this.now();
    this.lastSweep = now;
    for (const key of this.buckets.keys()) if (this.tokensAt(key, now) >= this.burst) this.buckets.delete(key);
  }

  get size(): number {
    return this.buckets.size;
  }

  /** How long an empty bucket takes to fill up. */
  private get refillMs(): number {
    return (this.burst / this.perSecond) * 1000;
  }

  private tokensAt(key: number, now: number): number {
    const bucket = this.buckets.get(key);
    if (!bucket) return this.burst;
    return Math.min(this.burst, bucket.tokens + ((now - bucket.at) / 1000) * this.perSecond);
  }
}

/**
 * A per-user budget that refuses for the route: past `limit` in the window it throws 429
 * `rate_limited` with Retry-After. For cheap calls that still write a row or tell other sockets
 * (blocks, privacy, confirmations, warnings, profile reads), so a script cannot flood them.
 */
export class Budget {
  private readonly counter: WindowCounter;

  constructor(limit: number, windowMs: number, now: () => number = Date.now) {
    this.counter = new WindowCounter(limit, windowMs, now);
  }

  take(key: number | string): void {
    const name = String(key);
    if (!this.counter.take(name)) throw rateLimited(this.counter.retryAfter(name));
  }
}
