// In-memory limiters. Keys are a user, a username or an address; counts live in this process,
// which is right for the one-server deployment this product targets.

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

/** Socket events: `perSecond` on average with bursts up to `burst`, per user. */
export class TokenBuckets {
  private readonly buckets = new Map<number, { tokens: number; at: number }>();

  constructor(
    private readonly perSecond: number,
    private readonly burst: number,
    private readonly now: () => number = Date.now,
  ) {}

  take(key: number): boolean {
    const now = this.now();
    const bucket = this.buckets.get(key) ?? { tokens: this.burst, at: now };
    bucket.tokens = Math.min(this.burst, bucket.tokens + ((now - bucket.at) / 1000) * this.perSecond);
    bucket.at = now;
    this.buckets.set(key, bucket);
    if (bucket.tokens < 1) return false;
    bucket.tokens -= 1;
    return true;
  }

  forget(key: number): void {
    this.buckets.delete(key);
  }
}
