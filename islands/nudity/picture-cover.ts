// Whether a message's pictures show under a cover, and why (issue 12 and the stranger blur): the
// one rule ImageGrid draws and the lightbox respects, so a covered picture never opens in full.
import { fileUrl } from "../lib/files.ts";
import { isBlurred } from "../lib/safety.ts";
import type { ChatStore } from "../lib/store.ts";
import type { Message } from "../lib/types.ts";
import { pictureCleared, pictureVerdict } from "./picture-checks.ts";

export type CoverReason = "explicit" | "checking" | "stranger";

/** With the setting on, everyone's pictures but mine wait for the classifier. */
export const needsCheck = (store: ChatStore, message: Message): boolean =>
  store.me.value.blur_nudity !== false && message.sender_id !== store.me.value.id;

function uncleared(store: ChatStore, message: Message): boolean {
  return needsCheck(store, message) && !store.revealed.value[message.id] && !pictureCleared(fileUrl(message));
}

export const isCovered = (store: ChatStore, message: Message): boolean => isBlurred(store, message) || uncleared(store, message);

/** The strongest reason any of these pictures is covered, or null when none is. */
export function coverReason(store: ChatStore, messages: Message[]): CoverReason | null {
  if (messages.some((m) => uncleared(store, m) && pictureVerdict(fileUrl(m)) === "explicit")) return "explicit";
  if (messages.some((m) => isBlurred(store, m))) return "stranger";
  return messages.some((m) => uncleared(store, m)) ? "checking" : null;
}
