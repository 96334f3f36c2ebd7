// The observable snapshot of one roulette visit: the reducer's state plus the two streams. The
// session and its parts (search, peer, pairing) all change it through update(), so the screen,
// subscribed through useSyncExternalStore, sees one consistent snapshot after every step.
import {
  initialRouletteState,
  rouletteReducer,
  type RouletteAction,
  type RouletteFilters,
  type RouletteSnapshot,
  type RouletteState,
} from "./roulette-state.ts";

export type RouletteMedia = Partial<Omit<RouletteSnapshot, "state">>;

export class RouletteStore {
  private snapshot: RouletteSnapshot;
  private listeners = new Set<() => void>();

  constructor(filters?: RouletteFilters) {
    this.snapshot = { state: initialRouletteState(filters), localStream: null, remoteStream: null };
  }

  // Arrow properties: the screen hands them to useSyncExternalStore unbound.
  getSnapshot = (): RouletteSnapshot => this.snapshot;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  get state(): RouletteState {
    return this.snapshot.state;
  }

  /** The current pairing's opaque id (the stranger's only name), or null. */
  get partnerId(): string | null {
    return this.state.partner?.id ?? null;
  }

  /** Applies an action (null: none) and any stream changes, then tells every listener. */
  update(action: RouletteAction | null, media: RouletteMedia = {}): void {
    const state = action ? rouletteReducer(this.state, action) : this.state;
    this.snapshot = { ...this.snapshot, ...media, state };
    for (const listener of [...this.listeners]) listener();
  }

  /** The screen is gone: nobody is told anything any more. */
  clearListeners(): void {
    this.listeners.clear();
  }
}
