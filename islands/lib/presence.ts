// Presence as spec section 4 has it: back online (or reconnect) when the tab becomes visible,
// offline after about 5 minutes hidden, logout signalled on page unload and on cleanup.
import type { RealtimeClient } from "./socket.ts";

export const HIDDEN_OFFLINE_MS = 5 * 60 * 1000;

type PresenceClient = Pick<RealtimeClient, "connected" | "send" | "reconnectNow">;

export function attachPresence(client: PresenceClient, hiddenOfflineMs: number = HIDDEN_OFFLINE_MS): () => void {
  let hiddenTimer: ReturnType<typeof setTimeout> | null = null;
  const clearHidden = () => {
    if (hiddenTimer) clearTimeout(hiddenTimer);
    hiddenTimer = null;
  };
  const onVisibility = () => {
    if (document.visibilityState === "hidden") {
      clearHidden();
      hiddenTimer = setTimeout(() => client.send("user_logout", {}), hiddenOfflineMs);
      return;
    }
    clearHidden();
    if (!client.connected) client.reconnectNow();
    else client.send("user_back_online", {});
  };
  const onUnload = () => client.send("user_logout", {});
  document.addEventListener("visibilitychange", onVisibility);
  window.addEventListener("pagehide", onUnload);
  return () => {
    clearHidden();
    document.removeEventListener("visibilitychange", onVisibility);
    window.removeEventListener("pagehide", onUnload);
    onUnload();
  };
}

/** Most ids one `presence_watch` may name (protocol.ts; the server refuses more). */
export const PRESENCE_WATCH_MAX = 200;
/** The shown list settles (paging, search, scrolling) for this long before it is sent. */
export const PRESENCE_WATCH_DEBOUNCE_MS = 500;

type WatchClient = Pick<RealtimeClient, "send">;

/**
 * The server tells a tab about the presence of people it has a conversation with, and of those it
 * watches: the people list watches what it shows (`read`, the visible ones first). Sends only when
 * the set changed, and again on a new socket, which starts out watching nobody.
 */
export class PresenceWatch {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private sent: string | null = null;

  constructor(
    private readonly client: () => WatchClient | null,
    private readonly read: () => readonly number[],
    private readonly debounceMs: number = PRESENCE_WATCH_DEBOUNCE_MS,
  ) {}

  /** What is shown changed: sent once it has been still for the debounce. */
  changed(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.flush(), this.debounceMs);
  }

  /** A new socket (first connect or reconnect): the list goes again at once. */
  connected(): void {
    this.sent = null;
    if (this.read().length > 0) this.flush();
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private flush(): void {
    this.stop();
    const userIds = [...new Set(this.read())].slice(0, PRESENCE_WATCH_MAX);
    // The same people in another order (someone came online and moved up) is the same watch.
    const key = [...userIds].sort((a, b) => a - b).join(",");
    if (key === this.sent) return;
    if (this.client()?.send("presence_watch", { userIds })) this.sent = key;
  }
}

/** `ids` from the first visible row on, then the rows above it: what is on screen is watched first. */
export function visibleFirst(ids: readonly number[], firstVisible: number): number[] {
  const from = Math.min(Math.max(0, firstVisible), ids.length);
  return [...ids.slice(from), ...ids.slice(0, from)];
}
