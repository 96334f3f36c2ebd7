// Pairs who just parted, kept apart for a while (DECISIONS "Roulette re-pairing"). The map is kept
// in the order the partings happened (a repeated parting moves to the back), so expired entries are
// always at the front and each record sweeps them in passing; a cap drops the oldest first, so two
// accounts cycling Next, or many accounts doing it at once, cannot grow memory without bound.

/** How long two users who just parted are kept apart while someone else is waiting. */
export const PARTED_MS = 60_000;
/** More partings than this inside one window (about 1,700 a second) forget the oldest early. */
export const MAX_PARTED = 100_000;

export class RecentlyParted {
  private readonly at = new Map<string, number>();

  constructor(
    private readonly now: () => number,
    private readonly cap = MAX_PARTED,
    private readonly windowMs = PARTED_MS,
  ) {}

  get size(): number {
    return this.at.size;
  }

  record(a: number, b: number): void {
    const k = pairKey(a, b);
    this.at.delete(k);
    this.at.set(k, this.now());
    this.sweep();
  }

  has(a: number, b: number): boolean {
    const at = this.at.get(pairKey(a, b));
    return at !== undefined && this.now() - at <= this.windowMs;
  }

  private sweep(): void {
    const now = this.now();
    for (const [k, at] of this.at) {
      if (this.at.size <= this.cap && now - at <= this.windowMs) return;
      this.at.delete(k);
    }
  }
}

export const pairKey = (a: number, b: number): string => (a < b ? `${a}:${b}` : `${b}:${a}`);
