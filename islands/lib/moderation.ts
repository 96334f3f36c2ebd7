// What a moderator's actions do to the chat screen (API.md "Moderation"): a ban replaces the screen
// with the ban page, warnings queue in a modal until acknowledged, and removed messages lose their
// content on both sides.
import { batch } from "@preact/signals-react";
import { t } from "../i18n.ts";
import { errorText } from "./api.ts";
import type { ChatController } from "./controller.ts";
import type { RealtimeClient } from "./socket.ts";
import { forgetSession } from "./storage.ts";
import type { BanNotice, Message, OwnUser, WarningNotice } from "./types.ts";

type Subscriber = Pick<RealtimeClient, "on">;

export const isModerator = (user: Pick<OwnUser, "role">) => user.role === "moderator" || user.role === "admin";

/**
 * Shows the ban page. The `banned` event comes just before the 4403 close; a close without it
 * (null) keeps whatever notice already arrived. The session is dead, so its token is forgotten.
 */
export function showBan(c: ChatController, notice: BanNotice | null): void {
  const current = c.store.banned.value;
  if (current && (current.notice || !notice)) return;
  c.store.banned.value = { notice };
  forgetSession();
  c.stop();
}

/** Adds warnings to the queue, oldest first, each once (the event and the page load may overlap). */
export function queueWarnings(c: ChatController, incoming: WarningNotice[]): void {
  const queue = c.store.warnings.value;
  const known = new Set(queue.map((w) => w.id));
  const fresh = incoming.filter((w) => !known.has(w.id) && known.add(w.id));
  if (fresh.length === 0) return;
  c.store.warnings.value = [...queue, ...fresh].sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id - b.id);
}

/** The warnings waiting from before this page loaded. */
export async function loadWarnings(c: ChatController): Promise<void> {
  try {
    queueWarnings(c, (await c.api.warnings()).warnings);
  } catch (error) {
    console.error("Failed to load warnings", error);
  }
}

/** "I understand": the warning leaves the queue only once the server has recorded it. */
export async function acknowledgeWarning(c: ChatController, id: number): Promise<boolean> {
  try {
    await c.api.acknowledgeWarning(id);
  } catch (error) {
    c.notify.error(errorText(error, t("chat.warning_ack_failed")));
    return false;
  }
  c.store.warnings.value = c.store.warnings.value.filter((w) => w.id !== id);
  return true;
}

/** A message as the server sends it once removed: no content, no file. */
export function asRemoved(message: Message): Message {
  return { ...message, is_removed: true, content: "", file_name: null, file_path: null, file_size: null };
}

/** Removes a message from the open chat, the chat list's previews and the lightbox. */
export function markRemoved(c: ChatController, messageId: number): void {
  const { store } = c;
  const strip = (m: Message) => (m.id === messageId && !m.is_removed ? asRemoved(m) : m);
  batch(() => {
    if (store.messages.value.some((m) => m.id === messageId)) store.messages.value = store.messages.value.map(strip);
    store.chats.value = store.chats.value.map((u) =>
      u.latest_message?.id === messageId ? { ...u, latest_message: strip(u.latest_message) } : u,
    );
    const box = store.lightbox.value;
    if (box?.images.some((i) => i.message.id === messageId)) {
      const images = box.images.filter((i) => i.message.id !== messageId);
      store.lightbox.value = images.length ? { images, index: Math.min(box.index, images.length - 1) } : null;
    }
  });
}

export function attachModerationEvents(c: ChatController, socket: Subscriber): () => void {
  const offs = [
    socket.on("banned", (notice) => showBan(c, notice)),
    socket.on("warning", (warning) => queueWarnings(c, [warning])),
    socket.on("message_removed", ({ messageId }) => markRemoved(c, messageId)),
  ];
  return () => {
    for (const off of offs) off();
  };
}
