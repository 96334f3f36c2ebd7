// Pairs who just parted, kept apart for a while (DECISIONS "Roulette re-pairing"). Each user's
// recent partners sit in a map of their own, keyed by the partner's id: a search reads its
// searcher's map once and then asks it about every candidate with a small integer key (a pair key
// across all users needs doubles or strings, slower to hash, on the roulette's hottest line).
// Partings are also kept in a line in the order they happened, so expired ones are always at its
// front and each record sweeps them in passing. The line, and so the maps, never hold more than a
// cap: past it the oldest parting is forgotten early, so accounts cycling Next cannot grow memory
// without bound.
import { Fifo } from "./fifo.ts";

/** How long two users who just parted are kept apart while someone else suitable is waiting. */
export const PARTED_MS = 60_000;
/** More partings than this inside one window (about 1,700 a second) forget the oldest early. */
export const MAX_PARTED = 100_000;

/** Whether the searcher parted from `other` within the window. */
export type PartedCheck = (other: number) => boolean;
const NONE: PartedCheck = () => false;

export class RecentlyParted {
  /** User id -> (partner id -> when they last parted). Both sides hold the same time. */
  private readonly byUser = new Map<number, Map<number, number>>();
  private pairs = 0;
  /** Every record, oldest first; one whose pair parted again since is stale and skipped. */
  private readonly line = new Fifo<{ a: number; b: number; at: number }>();

  constructor(
    private readonly now: () => number,
    private readonly cap = MAX_PARTED,
    private readonly windowMs = PARTED_MS,
  ) {}

  /** Pairs remembered now. */
  get size(): number {
    return this.pairs;
  }

  /** Records held, current or superseded by a later parting of the same pair: never above the cap. */
  get held(): number {
    return this.line.length;
  }

  record(a: number, b: number): void {
    const now = this.now();
    if (this.note(a, b, now)) this.pairs += 1;
    this.note(b, a, now);
    this.line.push({ a, b, at: now });
    this.sweep(now);
  }

  has(a: number, b: number): boolean {
    return this.checkFor(a)(b);
  }

  /** The check for one search by `userId`: the clock and their partners are read once. */
  checkFor(userId: number): PartedCheck {
    const partners = this.byUser.get(userId);
    if (!partners) return NONE;
    const since = this.now() - this.windowMs;
    return (other) => {
      const at = partners.get(other);
      return at !== undefined && at >= since;
    };
  }

  /** Sets when `a` last parted from `b`; true when `a` held no record of `b`. */
  private note(a: number, b: number, at: number): boolean {
    let partners = this.byUser.get(a);
    if (!partners) this.byUser.set(a, (partners = new Map()));
    const fresh = !partners.has(b);
    partners.set(b, at);
    return fresh;
  }

  private sweep(now: number): void {
    for (let oldest = this.line.peek(); oldest; oldest = this.line.peek()) {
      if (this.line.length <= this.cap && now - oldest.at <= this.windowMs) return;
      this.line.shift();
      if (this.byUser.get(oldest.a)?.get(oldest.b) !== oldest.at) continue;
      this.forget(oldest.a, oldest.b);
      this.forget(oldest.b, oldest.a);
      this.pairs -= 1;
    }
  }

  private forget(a: number, b: number): void {
    const partners = this.byUser.get(a)!;
    partners.delete(b);
    if (partners.size === 0) this.byUser.delete(a);
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
