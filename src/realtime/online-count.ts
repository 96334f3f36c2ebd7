// "N online" for every open tab, coalesced: a change starts a timer and one `online_count` goes out
// when it fires, so 5,000 arrivals in a second cost one frame per socket, not 5,000. Nothing is
// sent when the count is back where it was last sent.

/** At most one count per socket this often. */
export const ONLINE_COUNT_EVERY_MS = 5000;

export class OnlineCountTicker {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private lastSent = -1;
  private stopped = false;

  constructor(
    private readonly everyMs: number,
    private readonly read: () => number,
    private readonly send: (online: number) => void,
  ) {}

  changed(): void {
    if (this.timer || this.stopped) return;
    this.timer = setTimeout(() => this.flush(), this.everyMs);
    this.timer.unref?.();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private flush(): void {
    this.timer = null;
    const online = this.read();
    if (online === this.lastSent) return;
    this.lastSent = online;
    this.send(online);
  }
}
