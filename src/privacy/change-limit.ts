// A per-user budget for settings-like changes (blocks, privacy, the adult confirmation): cheap
// calls, but each one writes a row and may tell other sockets, so a script cannot flood them.
import { rateLimited } from "../http/errors.ts";
import { WindowCounter } from "../http/rate-limit.ts";

const HOUR_MS = 60 * 60_000;

export class ChangeLimit {
  private readonly counter: WindowCounter;

  constructor(perHour: number, now: () => number = Date.now) {
    this.counter = new WindowCounter(perHour, HOUR_MS, now);
  }

  /** Counts one change; past the budget, 429 `rate_limited` with Retry-After. */
  take(userId: number): void {
    const key = String(userId);
    if (!this.counter.take(key)) throw rateLimited(this.counter.retryAfter(key));
  }
}
