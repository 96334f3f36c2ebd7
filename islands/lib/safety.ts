// Block, unblock and refusals on the chat screen. A block hides the person from my lists at once
// (the server keeps the conversation; it comes back on Unblock), and a refused send explains
// itself in the conversation instead of failing silently.
import { t } from "../i18n.ts";
import { batch } from "@preact/signals-react";
import { ApiError, errorText } from "./api.ts";
import type { ReportTarget } from "../safety/ReportDialog.tsx";
import type { ChatController } from "./controller.ts";
import type { ChatStore } from "./store.ts";
import type { Message } from "./types.ts";
import { AckError } from "./socket.ts";

export type RefusalCode = "blocked" | "not_accepting";

export interface Refusal {
  contactId: number;
  code: RefusalCode;
  /** The server's own words. */
  text: string;
  /** The refused message's text, handed back to the message box so nothing typed is lost. */
  draft?: string;
}

/** The safety dialog on screen, if any (safety/SafetyDialogs.tsx shows it). */
export type SafetyDialog =
  | { kind: "report"; target: ReportTarget }
  | { kind: "block"; user: { id: number; name: string } };

export function openDialog(c: ChatController, dialog: SafetyDialog): void {
  c.store.safetyDialog.value = dialog;
}

/** Applies a block or unblock, whichever tab made it (block_changed reaches them all). */
export function applyBlock(c: ChatController, userId: number, blocked: boolean): void {
  const { store } = c;
  batch(() => {
    store.blocked.value = { ...store.blocked.value, [userId]: blocked };
    if (blocked) {
      store.chats.value = store.chats.value.filter((u) => u.id !== userId);
      store.users.value = store.users.value.filter((u) => u.id !== userId);
    }
    if (store.refusal.value?.contactId === userId) store.refusal.value = null;
  });
  // The server hid the conversation and the person; on Unblock its lists have them again.
  if (!blocked) void Promise.all([c.loadUsers(), c.loadChats()]);
}

export async function blockUser(c: ChatController, user: { id: number; name: string }): Promise<boolean> {
  try {
    await c.api.block({ userId: user.id });
  } catch (error) {
    c.notify.error(errorText(error, t("safety.block_failed_name", { name: user.name })));
    return false;
  }
  applyBlock(c, user.id, true);
  c.notify.success(t("safety.you_blocked", { name: user.name }));
  return true;
}

export async function unblockUser(c: ChatController, user: { id: number; name: string }): Promise<boolean> {
  try {
    await c.api.unblock(user.id);
  } catch (error) {
    c.notify.error(errorText(error, t("safety.unblock_failed_name", { name: user.name })));
    return false;
  }
  applyBlock(c, user.id, false);
  c.notify.success(t("safety.you_unblocked", { name: user.name }));
  return true;
}

/** The refusal a failed send carries, if it is one the conversation should explain. */
export function refusalOf(error: unknown): { code: RefusalCode; text: string } | null {
  const code = error instanceof AckError || error instanceof ApiError ? error.code : null;
  if (code !== "blocked" && code !== "not_accepting") return null;
  return { code, text: error instanceof Error ? error.message : "" };
}

/**
 * Shows a refused send in the conversation. "blocked" does not say who blocked whom: if it was
 * me, the line offers Unblock, so my own block list decides.
 */
export async function showRefusal(c: ChatController, contactId: number, error: unknown, draft?: string): Promise<boolean> {
  const refusal = refusalOf(error);
  if (!refusal) return false;
  c.store.refusal.value = { contactId, ...refusal, ...(draft ? { draft } : {}) };
  if (refusal.code === "blocked" && c.store.blocked.value[contactId] === undefined) {
    try {
      const { users } = await c.api.blocks();
      c.store.blocked.value = { ...c.store.blocked.value, [contactId]: users.some((u) => u.id === contactId) };
    } catch (failure) {
      console.error("Failed to load the block list", failure);
    }
  }
  return true;
}

/**
 * A picture from someone I have never written to shows blurred until tapped; mine never do, and
 * once I write to them none of theirs do.
 */
export function isBlurred(store: ChatStore, message: Message): boolean {
  if (message.sender_id === store.me.value.id) return false;
  return store.contacts.value[message.sender_id] !== true && !store.revealed.value[message.id];
}

export function reveal(store: ChatStore, messages: Message[]): void {
  const next = { ...store.revealed.value };
  for (const m of messages) next[m.id] = true;
  store.revealed.value = next;
}
