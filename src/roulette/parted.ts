// Pairs who just parted, kept apart for a while (DECISIONS "Roulette re-pairing"). Partings are
// also kept in a line in the order they happened, so expired ones are always at its front and each
// record sweeps them in passing. The line, and so the map, never holds more than a cap: past it the
// oldest parting is forgotten early, so accounts cycling Next cannot grow memory without bound.
import { Fifo } from "./fifo.ts";

/** How long two users who just parted are kept apart while someone else suitable is waiting. */
export const PARTED_MS = 60_000;
/** More partings than this inside one window (about 1,700 a second) forget the oldest early. */
export const MAX_PARTED = 100_000;

export class RecentlyParted {
  private readonly at = new Map<number | string, number>();
  /** Every record, oldest first; one whose pair parted again since is stale and skipped. */
  private readonly line = new Fifo<{ key: number | string; at: number }>();

  constructor(
    private readonly now: () => number,
    private readonly cap = MAX_PARTED,
    private readonly windowMs = PARTED_MS,
  ) {}

  /** Pairs remembered now. */
  get size(): number {
    return this.at.size;
  }

  /** Records held, current or superseded by a later parting of the same pair: never above the cap. */
  get held(): number {
    return this.line.length;
  }

  record(a: number, b: number): void {
    const now = this.now();
    const key = pairKey(a, b);
    this.at.set(key, now);
    this.line.push({ key, at: now });
    this.sweep(now);
  }

  has(a: number, b: number): boolean {
    const at = this.at.get(pairKey(a, b));
    return at !== undefined && this.now() - at <= this.windowMs;
  }

  private sweep(now: number): void {
    for (let oldest = this.line.peek(); oldest; oldest = this.line.peek()) {
      if (this.line.length <= this.cap && now - oldest.at <= this.windowMs) return;
      this.line.shift();
      if (this.at.get(oldest.key) === oldest.at) this.at.delete(oldest.key);
    }
  }
}

/** Past this, ids no longer fit two to a safe integer and the key falls back to a string. */
const ID_LIMIT = 2 ** 26;

/** One key for the pair in either order: a number while the ids allow (no string built, cheap to hash). */
export function pairKey(a: number, b: number): number | string {
  // Not a destructured [low, high]: that builds an array for every candidate a search reads.
  const low = a < b ? a : b;
  const high = a < b ? b : a;
  return high < ID_LIMIT && low >= 0 ? low * ID_LIMIT + high : `${low}:${high}`;
}
