// Registers the service worker (islands/sw/sw.ts) from every page that runs a script, so the
// site is installable and works offline from the first visit. Registering again is a no-op; a
// new build's worker waits until the old one's tabs are closed (see sw.ts).
import type { OpenChatMessage } from "./shared.ts";

export function registerServiceWorker(): void {
  if (!("serviceWorker" in navigator) || !window.isSecureContext) return;
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch((error: unknown) => console.warn("[sw] not registered:", error));
}

/** A notification of a chat was clicked while this chat screen was open (sw.ts). */
export function listenForOpenChat(open: (chatId: number) => void): () => void {
  if (!("serviceWorker" in navigator)) return () => undefined;
  const onMessage = (event: MessageEvent<Partial<OpenChatMessage> | null>) => {
    if (event.data?.type === "open_chat" && typeof event.data.chatId === "number") open(event.data.chatId);
  };
  navigator.serviceWorker.addEventListener("message", onMessage);
  return () => navigator.serviceWorker.removeEventListener("message", onMessage);
}
