// Realtime events of the chat screen, each a small handler over the controller's store.
import { t } from "../i18n.ts";
import { batch } from "@preact/signals-react";
import type { ChatController } from "./controller.ts";
import { addOwnMessage, receiveMessage } from "./inbox.ts";
import { applyBlock } from "./safety.ts";
import { sortUsers, withPresence } from "./lists.ts";
import { markDelivered, markRead } from "./messages.ts";
import { applyDelete, applyEdit, applyReaction } from "./message-actions.ts";
import { isOnline, learnEvent } from "./presence-book.ts";
import { recounted } from "./user-search.ts";
import type { RealtimeClient } from "./socket.ts";
import type { Message } from "./types.ts";

type Subscriber = Pick<RealtimeClient, "on">;

/**
 * Newcomers and unknown people coming online refresh the people list at most this often: a
 * flood of guest sign-ups must not make every open tab fetch the list once per event.
 */
export const PEOPLE_REFRESH_MS = 3000;

/** Runs `load` at once, then at most once per `intervalMs`, with one trailing run for what came between. */
function throttled(load: () => void, intervalMs: number): { request(): void; cancel(): void } {
  let last = -Infinity;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const run = () => {
    timer = null;
    last = Date.now();
    load();
  };
  return {
    request() {
      if (timer) return;
      const wait = last + intervalMs - Date.now();
      if (wait <= 0) run();
      else timer = setTimeout(run, wait);
    },
    cancel() {
      if (timer) clearTimeout(timer);
      timer = null;
    },
  };
}

/**
 * A contact who goes offline and is back within this long (a reload, a moment without signal)
 * makes no toast at all. The server already waits 5 s before it announces anyone offline; this
 * covers what gets past it (a slow reload, a server set to a shorter grace).
 */
export const OFFLINE_TOAST_GRACE_MS = 5000;

export interface EventTimings {
  peopleRefreshMs?: number;
  offlineToastGraceMs?: number;
}

/** Presence toasts only name people I have a conversation with, so strangers cannot flood my screen. */
const inMyChats = (c: ChatController, userId: number) => c.store.chats.value.some((u) => u.id === userId);

/**
 * "went offline" waits out the grace and is dropped if the person comes back; "is now online"
 * then says nothing either, since nobody was told they had left. Holds one timer per contact
 * inside the grace.
 */
function presenceToasts(c: ChatController, graceMs: number) {
  const leaving = new Map<number, ReturnType<typeof setTimeout>>();
  return {
    online(userId: number, name: string, wasOnline: boolean): void {
      const pending = leaving.get(userId);
      if (pending !== undefined) {
        clearTimeout(pending);
        leaving.delete(userId);
        return;
      }
      if (!wasOnline && inMyChats(c, userId)) c.notify.info(t("chat.now_online", { name }));
    },
    offline(userId: number, name: string, wasOnline: boolean): void {
      if (!wasOnline || leaving.has(userId) || !inMyChats(c, userId)) return;
      const timer = setTimeout(() => {
        leaving.delete(userId);
        if (inMyChats(c, userId)) c.notify.info(t("chat.went_offline", { name }));
      }, graceMs);
      leaving.set(userId, timer);
    },
    cancel(): void {
      for (const timer of leaving.values()) clearTimeout(timer);
      leaving.clear();
    },
  };
}

/** Applies a status change to the open chat and to the chat list's latest messages. */
function updateMessages(c: ChatController, change: (list: Message[]) => Message[]): void {
  c.applyToMessages(change);
}

/** A message deleted for everyone: if it may have been unread by me, the server's counts are asked for again. */
function deletedMessage(c: ChatController, messageId: number, deletedAt: string): void {
  const { store } = c;
  const shown = store.messages.value.find((m) => m.id === messageId) ?? store.chats.value.find((u) => u.latest_message?.id === messageId)?.latest_message;
  batch(() => {
    updateMessages(c, (list) => applyDelete(list, messageId, deletedAt));
    if (store.replyTo.value?.id === messageId) store.replyTo.value = null;
    if (store.editing.value?.id === messageId) store.editing.value = null;
  });
  if (!shown || (shown.receiver_id === store.me.value.id && !shown.is_read)) void c.refreshUnread();
}

/**
 * The book (presence-book.ts) is what every place shows; the lists' copies are updated too, since
 * the people list is ordered and filtered by them.
 */
function setPresence(c: ChatController, userId: number, online: boolean): void {
  const { store } = c;
  const now = new Date();
  batch(() => {
    store.presence.value = learnEvent(store.presence.value, userId, online, now);
    store.users.value = sortUsers(withPresence(store.users.value, userId, online, now));
    store.chats.value = withPresence(store.chats.value, userId, online, now);
    if (!online && store.typing.value[userId]) store.typing.value = { ...store.typing.value, [userId]: false };
  });
}

/** Whether this tab showed `userId` as online before an event: the book, else a list's copy. */
const shownOnline = (c: ChatController, userId: number): boolean =>
  isOnline(c.store.presence.value, userId) ?? c.knownUser(userId)?.is_online === true;

/** Subscribes every chat-screen handler; returns one function that removes them all. */
export function attachChatEvents(c: ChatController, socket: Subscriber, timings: EventTimings = {}): () => void {
  const me = () => c.store.me.value.id;
  const people = throttled(() => void c.loadUsers(), timings.peopleRefreshMs ?? PEOPLE_REFRESH_MS);
  const toasts = presenceToasts(c, timings.offlineToastGraceMs ?? OFFLINE_TOAST_GRACE_MS);
  const offs = [
    socket.on("new_message", ({ message }) => void receiveMessage(c, message)),
    socket.on("message_sent", ({ message }) => addOwnMessage(c, message)),
    socket.on("message_delivered", ({ messageId, deliveredAt }) =>
      updateMessages(c, (list) => markDelivered(list, messageId, deliveredAt)),
    ),
    socket.on("messages_read_batch", ({ messageIds, receiverId, readAt }) => {
      updateMessages(c, (list) => markRead(list, messageIds, readAt));
      // I read these in another tab: the counters changed elsewhere.
      if (receiverId === me()) void c.refreshUnread();
    }),
    socket.on("message_read", ({ messageId, receiverId, readAt }) => {
      updateMessages(c, (list) => markRead(list, [messageId], readAt));
      if (receiverId === me()) void c.refreshUnread();
    }),
    socket.on("message_edited", ({ messageId, content, edited_at }) => updateMessages(c, (list) => applyEdit(list, messageId, content, edited_at))),
    socket.on("message_deleted", ({ messageId, deleted_at }) => deletedMessage(c, messageId, deleted_at)),
    socket.on("message_reaction", ({ messageId, userId, emoji }) => updateMessages(c, (list) => applyReaction(list, messageId, userId, emoji))),
    socket.on("user_typing", ({ userId, isTyping }) => {
      c.store.typing.value = { ...c.store.typing.value, [userId]: isTyping };
    }),
    socket.on("user_online", ({ userId, name }) => {
      if (userId === me()) return;
      const wasOnline = shownOnline(c, userId);
      setPresence(c, userId, true);
      if (!c.knownUser(userId)) people.request();
      toasts.online(userId, name, wasOnline);
    }),
    socket.on("user_offline", ({ userId, name }) => {
      if (userId === me()) return;
      const wasOnline = shownOnline(c, userId);
      setPresence(c, userId, false);
      toasts.offline(userId, name, wasOnline);
    }),
    // At most every 5 s: arrivals of people this tab neither shows nor talks with are not sent one by one.
    socket.on("online_count", ({ online }) => {
      const count = c.store.everyoneCount.value;
      if (count) c.store.everyoneCount.value = recounted(count, online, c.store.users.value);
    }),
    // I blocked or unblocked someone, in this tab or another.
    socket.on("block_changed", ({ userId, blocked }) => applyBlock(c, userId, blocked)),
    // A newcomer is in nobody's chat list yet, so no toast: the people list shows them.
    socket.on("new_user_registered", () => people.request()),
  ];
  return () => {
    people.cancel();
    toasts.cancel();
    for (const off of offs) off();
  };
}
