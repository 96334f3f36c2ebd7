// Replies, edits, deletions for everyone, reactions and voice messages on the client: pure rules
// over message lists (applied to the open chat and the chat list's previews alike) and the actions
// the message menu and the input call. The server is the judge of every rule; these only keep
// the screen in step with what it answered or announced.
import { batch } from "@preact/signals-react";
import { EDIT_WINDOW_MS, QUICK_REACTIONS, REPLY_PREVIEW_CHARS } from "../../src/realtime/message-rules.ts";
import type { ChatController } from "./controller.ts";
import { addOwnMessage } from "./inbox.ts";
import { showRefusal } from "./safety.ts";
import type { Message } from "./types.ts";
import { t } from "../i18n.ts";

export { EDIT_WINDOW_MS, QUICK_REACTIONS };

/** What a message deleted for everyone says in its place. */
export const deletedText = (): string => t("chat.deleted");

/** What a quote or a preview says of a message that has no text of its own. */
export function quoteText(m: Pick<Message, "message_type" | "content" | "deleted_at" | "is_removed">): string {
  if (m.deleted_at) return deletedText();
  if (m.message_type === "voice") return t("chat.voice_message");
  if (m.message_type === "image") return t("chat.photo");
  if (m.message_type === "file") return m.content || t("chat.file");
  return m.content;
}

export function canEdit(m: Message, meId: number, now = Date.now()): boolean {
  return m.sender_id === meId && m.message_type === "text" && !m.deleted_at && !m.is_removed && now - Date.parse(m.created_at) < EDIT_WINDOW_MS;
}

export const isGone = (m: Message): boolean => m.deleted_at !== null || m.is_removed;

export function applyEdit(list: Message[], messageId: number, content: string, editedAt: string): Message[] {
  return list.map((m) => {
    if (m.id === messageId) return { ...m, content, edited_at: editedAt };
    if (m.reply_to?.id === messageId) return { ...m, reply_to: { ...m.reply_to, content: content.slice(0, REPLY_PREVIEW_CHARS) } };
    return m;
  });
}

export function applyDelete(list: Message[], messageId: number, deletedAt: string): Message[] {
  return list.map((m) => {
    if (m.id === messageId) {
      return { ...m, content: "", file_name: null, file_path: null, file_size: null, duration_ms: null, reactions: [], deleted_at: deletedAt };
    }
    if (m.reply_to?.id === messageId) return { ...m, reply_to: { ...m.reply_to, content: "" } };
    return m;
  });
}

/** One reaction per person: `userId` leaves every group, then joins `emoji`'s (none when null). */
export function applyReaction(list: Message[], messageId: number, userId: number, emoji: string | null): Message[] {
  return list.map((m) => {
    if (m.id !== messageId) return m;
    const groups = m.reactions.map((g) => ({ ...g, user_ids: g.user_ids.filter((id) => id !== userId) }));
    if (emoji !== null) {
      const group = groups.find((g) => g.emoji === emoji);
      if (group) group.user_ids.push(userId);
      else groups.push({ emoji, user_ids: [userId] });
    }
    return { ...m, reactions: groups.filter((g) => g.user_ids.length > 0) };
  });
}

// ------------------------------------------------------------------- actions

export function startReply(c: ChatController, m: Message): void {
  batch(() => {
    c.store.editing.value = null;
    c.store.replyTo.value = m;
  });
}

export function startEdit(c: ChatController, m: Message): void {
  batch(() => {
    c.store.replyTo.value = null;
    c.store.editing.value = m;
  });
}

export function cancelCompose(c: ChatController): void {
  batch(() => {
    c.store.replyTo.value = null;
    c.store.editing.value = null;
  });
}

/** Says why an action was refused (a block, the 15 minutes) as a toast; false when it could not be sent. */
async function ask<T>(c: ChatController, what: "chat.edit_failed" | "chat.delete_failed" | "chat.react_failed", run: () => Promise<T>): Promise<T | null> {
  try {
    return await run();
  } catch (error) {
    const contactId = c.store.selected.value?.id;
    if (contactId !== undefined && (await showRefusal(c, contactId, error))) return null;
    const reason = error instanceof Error && error.message ? error.message : t("chat.try_again");
    c.notify.error(t(what, { reason }));
    return null;
  }
}

export async function sendEdit(c: ChatController, m: Message, text: string): Promise<boolean> {
  const content = text.trim();
  const socket = c.socket;
  if (!content || !socket?.connected) return false;
  c.store.editing.value = null;
  if (content === m.content) return true;
  const answer = await ask(c, "chat.edit_failed", () => socket.request("edit_message", { messageId: m.id, content }));
  if (answer) c.applyToMessages((list) => applyEdit(list, answer.messageId, answer.content, answer.edited_at));
  return answer !== null;
}

export async function deleteForEveryone(c: ChatController, m: Message): Promise<boolean> {
  const socket = c.socket;
  if (!socket?.connected) return false;
  const answer = await ask(c, "chat.delete_failed", () => socket.request("delete_message", { messageId: m.id }));
  if (answer) c.applyToMessages((list) => applyDelete(list, answer.messageId, answer.deleted_at));
  return answer !== null;
}

export async function react(c: ChatController, m: Message, emoji: string): Promise<void> {
  const socket = c.socket;
  if (!socket?.connected) return;
  const answer = await ask(c, "chat.react_failed", () => socket.request("react", { messageId: m.id, emoji }));
  if (answer) c.applyToMessages((list) => applyReaction(list, answer.messageId, answer.userId, answer.emoji));
}

export async function sendVoice(c: ChatController, recording: Blob, durationMs: number): Promise<boolean> {
  const contact = c.store.selected.value;
  if (!contact) return false;
  try {
    addOwnMessage(c, (await c.api.uploadVoice(contact.id, recording, durationMs)).message);
    return true;
  } catch (error) {
    if (!(await showRefusal(c, contact.id, error))) c.notify.error(t("chat.voice_not_sent", { reason: error instanceof Error ? error.message : t("chat.voice_try_again") }));
    return false;
  }
}

/** Brings a message of the open chat into view, loading older pages until it is there (or none are left). */
export async function showMessage(c: ChatController, messageId: number): Promise<boolean> {
  const { store } = c;
  const contactId = store.selected.value?.id;
  while (!store.messages.value.some((m) => m.id === messageId)) {
    if (!store.hasMore.value || store.selected.value?.id !== contactId) return false;
    const before = store.messages.value.length;
    await c.loadOlder();
    if (store.messages.value.length === before) return false;
  }
  store.highlight.value = messageId;
  return true;
}
