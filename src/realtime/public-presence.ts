// Presence as strangers see it (issue 18): watchers, the people list, profiles and calls from
// people without a conversation with the user. A stranger who can time someone's arrival or departure can link
// a Video Roulette partner to an account (the partner leaves, the account goes offline a grace
// later). So:
// - changes reach strangers only in batches: one clock for everyone, ticking at a random interval
//   within the window, and each tick publishes only the net change since the last one, so a flap
//   inside a batch is never seen and everyone who changed in one batch shares one time;
// - from a user's first roulette search until the end of that visit, strangers do not see them
//   come online; if they were shown online, they are shown offline at a random time within
//   HIDE_MAX after the search, so neither the search nor the session's end can be timed.
// docs/DECISIONS.md "Issue 18: presence timing" has the attack model and the measured figures.
// Memory: one entry per shown user, per user in roulette this visit, and per pending change.
// Several instances (issue 23): each change is announced, and so batched, on one instance; what
// it publishes, a roulette search's hiding and a visit's end are shared (`share`, over the bus in
// hub.ts), so every instance's copy of who is shown, and who is hidden, is the same.

export interface BatchWindow {
  /** Least and most time between two ticks; 0 and 0 publish every change at once (tests). */
  minMs: number;
  maxMs: number;
}

/** A user shown online who starts Video Roulette is shown offline at a random time within this. */
export const HIDE_MAX_MS = 10 * 60_000;

/** Called once per tick with the users whose shown state changed, and the tick's time. */
export type Publish = (changes: ReadonlyMap<number, boolean>, at: number) => void;

/** What the other instances must hear (several instances; none in one process). */
export interface ShownShare {
  /** This instance published these changes (the other instances mirror them). */
  published(changes: ReadonlyMap<number, boolean>): void;
  /** A roulette search here: the user is hidden from strangers on every instance. */
  hid(userId: number): void;
  /** The hidden user went offline here: their visit is over on every instance. */
  visitEnded(userId: number): void;
}

interface Pending {
  online: boolean;
  /** Not published before this time. */
  notBefore: number;
}

export class PublicPresence {
  private readonly shown = new Set<number>();
  private readonly pending = new Map<number, Pending>();
  /** In Video Roulette during this visit: hidden from strangers until the visit ends. */
  private readonly hidden = new Set<number>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private stopped = false;
  /** Several instances: what the others must hear. */
  share: ShownShare | null = null;
  /** While a whole copy is read (load): the changes made meanwhile, applied again on top of it. */
  private meanwhile: Map<number, boolean> | null = null;

  constructor(
    private readonly window: BatchWindow,
    private readonly publish: Publish,
    private readonly random: () => number = Math.random,
  ) {}

  private get batched(): boolean {
    return this.window.maxMs > 0;
  }

  /** The announced presence changed (after the grace); strangers hear it at the next tick. */
  change(userId: number, online: boolean): void {
    if (this.stopped) return;
    if (this.hidden.has(userId)) {
      if (online) return;
      // The visit is over. A hidden user was either never shown this visit (nothing to say) or has
      // a delayed "offline" pending, which keeps its own time.
      this.hidden.delete(userId);
      this.share?.visitEnded(userId);
      return;
    }
    this.queue(userId, online, 0);
  }

  /** A roulette search: from now to the end of this visit, strangers do not see this user arrive. */
  hide(userId: number): void {
    if (this.stopped || this.hidden.has(userId)) return;
    this.hidden.add(userId);
    this.share?.hid(userId);
    // An arrival not yet published never will be.
    if (!this.shown.has(userId)) return void this.pending.delete(userId);
    this.queue(userId, false, this.batched ? this.random() * HIDE_MAX_MS : 0);
  }

  /** Another instance published these changes: this copy follows, publishing nothing. */
  mirror(changes: Iterable<readonly [number, boolean]>): void {
    for (const [userId, online] of changes) this.set(userId, online);
  }

  /** Another instance hid this user (a roulette search there): arrivals are not shown here either. */
  hiddenElsewhere(userId: number): void {
    if (this.stopped) return;
    this.hidden.add(userId);
    if (!this.shown.has(userId)) this.pending.delete(userId);
  }

  /** The hidden user's visit ended on another instance; a delayed "offline" here keeps its time. */
  visitEndedElsewhere(userId: number): void {
    this.hidden.delete(userId);
  }

  /**
   * Several instances: who is shown, read whole (from the users rows, which every batch writes),
   * at start-up and after changes from the others may have been lost. `read` resolves to the ids;
   * changes published or mirrored while it reads are applied again on top.
   */
  async load(read: () => Promise<readonly number[]>): Promise<void> {
    const during = new Map<number, boolean>();
    this.meanwhile = during;
    try {
      const ids = await read();
      if (this.meanwhile !== during) return; // a later load replaced this one
      this.shown.clear();
      for (const id of ids) this.shown.add(id);
      for (const [userId, online] of during) this.set(userId, online);
    } finally {
      if (this.meanwhile === during) this.meanwhile = null;
    }
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

  /** Publishes what is due now (a tick); `all` also what waits for a later time (tests). */
  flush(all = false): void {
    const now = Date.now();
    const due = new Map<number, boolean>();
    for (const [userId, change] of this.pending) {
      if (!all && change.notBefore > now) continue;
      due.set(userId, change.online);
      this.pending.delete(userId);
    }
    this.apply(due);
  }

  private queue(userId: number, online: boolean, delayMs: number): void {
    if (!this.batched) return this.apply(new Map([[userId, online]]));
    this.pending.set(userId, { online, notBefore: Date.now() + delayMs });
    // The clock runs from the first change on and never waits for one, so a tick's time says
    // nothing about when any one change was made within its batch.
    this.timer ??= this.schedule();
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
      this.set(userId, online);
      changes.set(userId, online);
    }
    if (changes.size === 0) return;
    this.publish(changes, Date.now());
    this.share?.published(changes);
  }

  private set(userId: number, online: boolean): void {
    if (online) this.shown.add(userId);
    else this.shown.delete(userId);
    this.meanwhile?.set(userId, online);
  }
}
