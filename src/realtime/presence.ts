// What everyone else has been told about a user's presence. Coming online is news at once; going
// offline only after a grace, so a tab that reloads or an account that loops connect/close is not
// announced (nor written to the users row) on every flap. Memory: one entry per announced user and
// one timer per user inside the grace.

/** Called only when the announced state changes. */
export type Announce = (userId: number, online: boolean) => void;

export class PresenceAnnouncer {
  private readonly announced = new Set<number>();
  private readonly leaving = new Map<number, ReturnType<typeof setTimeout>>();
  private stopped = false;

  constructor(
    private readonly graceMs: number,
    private readonly announce: Announce,
  ) {}

  /** The user's real presence now: at least one open socket that has not sent `user_logout`. */
  update(userId: number, present: boolean): void {
    if (this.stopped) return;
    if (present) {
      this.cancelLeaving(userId);
      if (this.announced.has(userId)) return;
      this.announced.add(userId);
      return this.announce(userId, true);
    }
    if (!this.announced.has(userId) || this.leaving.has(userId)) return;
    if (this.graceMs === 0) return this.goOffline(userId);
    const timer = setTimeout(() => this.goOffline(userId), this.graceMs);
    timer.unref?.();
    this.leaving.set(userId, timer);
  }

  /** Announces the user offline now (a ban): there is nothing to come back to. */
  offlineNow(userId: number): void {
    if (this.stopped || !this.announced.has(userId)) return;
    this.goOffline(userId);
  }

  /** Users announced online now (for /metrics). */
  get announcedCount(): number {
    return this.announced.size;
  }

  /** Online as far as everyone else knows (true during the grace). */
  isAnnounced(userId: number): boolean {
    return this.announced.has(userId);
  }

  /** Shutting down: nothing more is announced or written; start-up marks everyone offline. */
  stop(): void {
    this.stopped = true;
    for (const timer of this.leaving.values()) clearTimeout(timer);
    this.leaving.clear();
  }

  private goOffline(userId: number): void {
    this.cancelLeaving(userId);
    this.announced.delete(userId);
    this.announce(userId, false);
  }

  private cancelLeaving(userId: number): void {
    const timer = this.leaving.get(userId);
    if (timer === undefined) return;
    clearTimeout(timer);
    this.leaving.delete(userId);
  }
}
