// Looking for a partner (spec section 9 "Roulette"): the search is sent again every 30 seconds
// while nobody is found, a lost partner is looked for again a second later, and a search the
// server refuses (suspended, not confirmed 18+) ends the visit with the reason.
import type { RouletteSocket } from "./ports.ts";
import { RESEARCH_DELAY_MS, ROULETTE_ERRORS, SEARCH_RETRY_MS } from "./roulette-state.ts";
import type { RouletteStore } from "./roulette-store.ts";

/** Why the server refused a search, as the person reads it; other refusals are only logged. */
const SEARCH_REFUSALS: Record<string, string> = {
  suspended: ROULETTE_ERRORS.suspended,
  adult_confirmation_required: ROULETTE_ERRORS.adult,
};

export interface SearchDeps {
  store: RouletteStore;
  socket: RouletteSocket;
  userId: number;
  /** The pairing counter: a refusal that comes back after the pair changed is stale. */
  currentPair(): number;
  /** The server refused the search; its timers are already cleared. */
  refused(text: string): void;
}

export class RouletteSearch {
  private retryTimer: ReturnType<typeof setInterval> | null = null;
  private laterTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly deps: SearchDeps) {}

  /** A search is under way and resent on its timer. */
  get running(): boolean {
    return this.retryTimer !== null;
  }

  /** A new search is due shortly (after a lost partner or Next). */
  get pending(): boolean {
    return this.laterTimer !== null;
  }

  /** Searches now, and again on the retry timer while still searching. */
  begin(): void {
    this.cancel();
    this.deps.store.update({ type: "searching" });
    this.send();
    this.retryTimer = setInterval(() => {
      if (this.deps.store.state.status === "searching") this.send();
    }, SEARCH_RETRY_MS);
  }

  /** Sends the search with the current filters. */
  send(): void {
    const { store, socket, userId } = this.deps;
    const pair = this.deps.currentPair();
    socket.request("roulette_search", { userId, filters: store.state.filters }).catch((error: unknown) => {
      const code = typeof error === "object" && error !== null && "code" in error ? String(error.code) : "";
      const said = typeof error === "object" && error !== null && "message" in error ? String(error.message) : "";
      // A moderator's suspension carries its end and reason in the server's words: show them.
      const refusal = code === "suspended" && said ? said : SEARCH_REFUSALS[code];
      if (!refusal) return console.error("Roulette: the search was not accepted", error);
      if (this.deps.currentPair() !== pair || store.state.status !== "searching") return;
      this.cancel();
      this.deps.refused(refusal);
    });
  }

  /** Searches again a second later, if still searching then. */
  later(): void {
    if (this.laterTimer) clearTimeout(this.laterTimer);
    this.laterTimer = setTimeout(() => {
      this.laterTimer = null;
      if (this.deps.store.state.status === "searching") this.begin();
    }, RESEARCH_DELAY_MS);
  }

  cancel(): void {
    if (this.retryTimer) clearInterval(this.retryTimer);
    if (this.laterTimer) clearTimeout(this.laterTimer);
    this.retryTimer = null;
    this.laterTimer = null;
  }
}
