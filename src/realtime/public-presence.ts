// Presence as strangers see it (issue 18): watchers, the people list, profiles and calls from
// people the user never wrote to. A stranger who can time someone's arrival or departure to the
// second can link a Video Roulette partner to an account (the partner leaves, the account goes
// offline a grace later). So changes reach strangers only in batches: one clock for everyone,
// ticking at a random interval within the window, and each tick publishes only the net change
// since the last one, so a flap inside a batch is never seen and everyone who changed in one batch
// shares one time. docs/DECISIONS.md "Issue 18: presence timing" has the model and the figures.
// Memory: one entry per shown user and one per user who changed since the last tick.

export interface BatchWindow {
  /** Least and most time between two ticks; 0 and 0 publish every change at once (tests). */
  minMs: number;
  maxMs: number;
}

/** Called once per tick with the users whose shown state changed, and the tick's time. */
export type Publish = (changes: ReadonlyMap<number, boolean>, at: number) => void;

export class PublicPresence {
  private readonly shown = new Set<number>();
  private readonly pending = new Map<number, boolean>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private stopped = false;

  constructor(
    private readonly window: BatchWindow,
    private readonly publish: Publish,
    private readonly random: () => number = Math.random,
  ) {}

  /** The announced presence changed (after the grace); strangers hear it at the next tick. */
  change(userId: number, online: boolean): void {
    if (this.stopped) return;
    if (this.window.maxMs <= 0) return this.apply(new Map([[userId, online]]));
    this.pending.set(userId, online);
    // The clock runs from the first change on and never waits for one, so a tick's time says
    // nothing about when any one change was made within its batch.
    this.timer ??= this.schedule();
  }

  /** Online as strangers have been told. */
  isShown(userId: number): boolean {
    return this.shown.has(userId);
  }

  get shownCount(): number {
    return this.shown.size;
  }

  /** Shutting down: nothing more is published (start-up marks everyone offline). */
  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.pending.clear();
  }

  /** Publishes what is pending now (tests, and a tick). */
  flush(): void {
    const changes = new Map(this.pending);
    this.pending.clear();
    this.apply(changes);
  }

  private schedule(): ReturnType<typeof setTimeout> {
    const { minMs, maxMs } = this.window;
    const timer = setTimeout(() => {
      this.timer = this.schedule();
      this.flush();
    }, minMs + this.random() * (maxMs - minMs));
    timer.unref?.();
    return timer;
  }

  private apply(candidates: ReadonlyMap<number, boolean>): void {
    const changes = new Map<number, boolean>();
    for (const [userId, online] of candidates) {
      if (this.shown.has(userId) === online) continue;
      if (online) this.shown.add(userId);
      else this.shown.delete(userId);
      changes.set(userId, online);
    }
    if (changes.size > 0) this.publish(changes, Date.now());
  }
}
