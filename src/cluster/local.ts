// The ports for one process: what the product did before it could run on several instances, with
// nothing in between. Fan-out delivers to this process's sockets; presence is presence.ts; limits
// are the in-memory counters of http/rate-limit.ts; the bus calls its listeners at once; a lease is
// always held.
import { WindowCounter } from "../http/rate-limit.ts";
import { PresenceAnnouncer } from "../realtime/presence.ts";
import type { Bus, FanOut, Lease, LimitsPort, LocalDelivery, Ports, SlidingLimit, Slot, Slots, WindowLimit } from "./ports.ts";

export class LocalFanOut implements FanOut {
  readonly instanceId = "local";
  readonly distributed = false;
  private local: LocalDelivery | null = null;

  attach(local: LocalDelivery): void {
    this.local = local;
  }

  holding(): void {}

  heldElsewhere(): Promise<boolean> {
    return Promise.resolve(false);
  }

  toUser(userId: number, text: string): void {
    this.local?.toUser(userId, text);
  }

  toSocket(_instanceId: string, socketId: string, text: string): void {
    this.local?.toSocket(socketId, text);
  }

  toAll(text: string, exceptUserId?: number, hidden?: ReadonlySet<number>): void {
    this.local?.toAll(text, exceptUserId, hidden);
  }

  toWatchers(subjectId: number, text: string, except: ReadonlySet<number>): void {
    this.local?.toWatchers(subjectId, text, except);
  }
}

class LocalWindow implements WindowLimit {
  private readonly counter: WindowCounter;

  constructor(limit: number, windowMs: number, now: () => number) {
    this.counter = new WindowCounter(limit, windowMs, now);
  }

  async take(key: string, amount = 1): Promise<number> {
    if (this.counter.take(key, amount)) return 0;
    return Math.max(this.counter.retryAfter(key, amount), 0.001);
  }

  async retryAfter(key: string, amount = 1): Promise<number> {
    return this.counter.retryAfter(key, amount);
  }
}

/**
 * Event times per key within a sliding window (failed logins). Memory stays bounded under a flood
 * of made-up names: expired keys go first, then the oldest. Each new key costs the flooder a
 * password hash, so the cap is not reached within a window at any rate one server can hash.
 */
export class LocalSliding implements SlidingLimit {
  private readonly entries = new Map<string, number[]>();

  constructor(
    private readonly windowMs: number,
    private readonly now: () => number,
    private readonly maxKeys = 100_000,
  ) {}

  async reserve(keys: readonly (readonly [string, number])[]): Promise<Slot | { retryAfter: number }> {
    const now = this.now();
    let wait = 0;
    for (const [key, limit] of keys) {
      const list = this.live(key, now);
      if (list.length >= limit) wait = Math.max(wait, Math.max(1, (list[list.length - limit]! + this.windowMs - now) / 1000));
    }
    if (wait > 0) return { retryAfter: wait };
    // Each reservation is its own array slot, found again by identity of the boxed time.
    const held = keys.map(([key]) => {
      const list = this.live(key, now);
      list.push(now);
      this.entries.set(key, list);
      return [key, list.length - 1, now] as const;
    });
    this.bound(now);
    let released = false;
    return {
      release: async () => {
        if (released) return;
        released = true;
        for (const [key, , at] of held) {
          const list = this.entries.get(key);
          const index = list?.lastIndexOf(at) ?? -1;
          if (!list || index < 0) continue;
          list.splice(index, 1);
          if (list.length === 0) this.entries.delete(key);
        }
      },
    };
  }

  /** Keys held now (for tests of the memory bound). */
  get keyCount(): number {
    return this.entries.size;
  }

  private live(key: string, now: number): number[] {
    const list = this.entries.get(key) ?? [];
    while (list.length > 0 && list[0]! <= now - this.windowMs) list.shift();
    if (list.length === 0) this.entries.delete(key);
    return list;
  }

  private bound(now: number): void {
    if (this.entries.size <= this.maxKeys) return;
    for (const key of [...this.entries.keys()]) this.live(key, now);
    for (const key of this.entries.keys()) {
      if (this.entries.size <= this.maxKeys) break;
      this.entries.delete(key);
    }
  }
}

class LocalSlots implements Slots {
  private readonly counts = new Map<string, number>();

  async acquire(keys: readonly (readonly [string, number])[]): Promise<boolean> {
    return this.acquireNow(keys);
  }

  /** The same, answered at once (the hub's own caps need no promise in one process). */
  acquireNow(keys: readonly (readonly [string, number])[]): boolean {
    for (const [key, cap] of keys) if ((this.counts.get(key) ?? 0) >= cap) return false;
    for (const [key] of keys) this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
    return true;
  }

  release(keys: readonly string[]): void {
    for (const key of keys) {
      const left = (this.counts.get(key) ?? 0) - 1;
      if (left > 0) this.counts.set(key, left);
      else this.counts.delete(key);
    }
  }

  async held(key: string): Promise<number> {
    return this.counts.get(key) ?? 0;
  }
}

/** One limit per name, as over Redis: two callers of `window("signups", ...)` share its counts. */
export class LocalLimits implements LimitsPort {
  private readonly made = new Map<string, WindowLimit | SlidingLimit | Slots>();

  constructor(private readonly now: () => number = Date.now) {}

  window(name: string, limit: number, windowMs: number): WindowLimit {
    return this.once(`w:${name}`, () => new LocalWindow(limit, windowMs, this.now));
  }

  sliding(name: string, windowMs: number): SlidingLimit {
    return this.once(`z:${name}`, () => new LocalSliding(windowMs, this.now));
  }

  slots(name: string): Slots {
    return this.once(`s:${name}`, () => new LocalSlots());
  }

  private once<T extends WindowLimit | SlidingLimit | Slots>(key: string, make: () => T): T {
    const found = this.made.get(key);
    if (found) return found as T;
    const fresh = make();
    this.made.set(key, fresh);
    return fresh;
  }
}

export class LocalBus implements Bus {
  private readonly listeners = new Map<string, Set<(data: unknown) => void>>();

  publish(topic: string, data: unknown): void {
    for (const listener of this.listeners.get(topic) ?? []) listener(data);
  }

  async publishApplied(topic: string, data: unknown): Promise<boolean> {
    this.publish(topic, data);
    return true;
  }

  onResync(): () => void {
    return () => {};
  }

  subscribe(topic: string, listener: (data: unknown) => void): () => void {
    const set = this.listeners.get(topic) ?? new Set();
    set.add(listener);
    this.listeners.set(topic, set);
    return () => void set.delete(listener);
  }
}

const ALWAYS: Lease = { hold: async () => true, release: async () => {} };

export function localPorts(): Ports {
  return {
    kind: "local",
    fanOut: new LocalFanOut(),
    presence: (graceMs, announce, changed) =>
      new PresenceAnnouncer(graceMs, (userId, online) => {
        announce(userId, online);
        changed();
      }),
    limits: new LocalLimits(),
    bus: new LocalBus(),
    lease: () => ALWAYS,
    ready: async () => {},
    settled: async () => {},
    close: async () => {},
  };
}
