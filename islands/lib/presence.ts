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
