// What the service worker and the pages agree on (issue 26).

/** The offline page the worker keeps and answers navigations with when there is no network. */
export const OFFLINE_URL = "/offline";

/** The worker's word to an open chat screen: a notification of this chat was clicked. */
export interface OpenChatMessage {
  type: "open_chat";
  chatId: number;
}

/** `?chat=<id>` on the chat screen's address: open that chat (a notification's link). */
export function chatFromUrl(search: string): number | null {
  const id = Number(new URLSearchParams(search).get("chat"));
  return Number.isInteger(id) && id > 0 ? id : null;
}
