// Messages arriving in the conversation: my own (from this tab or another) and other people's,
// with the unread counters and read marking of spec section 4.
import { batch } from "@preact/signals-react";
import type { ChatController } from "./controller.ts";
import { chatsWithMessage, fallbackUser, sortUsers, withUser } from "./lists.ts";
import { addMessages, incomingOutcome } from "./messages.ts";
import { bookStamp, learnList, live } from "./presence-book.ts";
import type { ChatUser, Message } from "./types.ts";

/** A message I sent: shown once, listed, and the view scrolls to it. */
export function addOwnMessage(c: ChatController, message: Message): void {
  const { store } = c;
  batch(() => {
    // Writing to someone makes them a contact: their pictures show normally from now on.
    if (!store.contacts.value[message.receiver_id]) store.contacts.value = { ...store.contacts.value, [message.receiver_id]: true };
    if (store.refusal.value?.contactId === message.receiver_id) store.refusal.value = null;
    if (store.selected.value?.id === message.receiver_id) {
      store.messages.value = addMessages(store.messages.value, [message]);
      store.ownMessageTick.value += 1;
    }
    const contact = c.knownUser(message.receiver_id);
    if (contact) store.chats.value = chatsWithMessage(store.chats.value, contact, message, false);
  });
}

/**
 * A message from someone else: unread (total and per user) only if addressed to me and their
 * chat is not open; marked read at once when it is.
 */
export async function receiveMessage(c: ChatController, message: Message): Promise<void> {
  const { store } = c;
  const outcome = incomingOutcome(message, { meId: store.me.value.id, openChatId: store.openChatId.value });
  const contact = c.knownUser(outcome.contactId) ?? (await fetchSender(c, message));
  batch(() => {
    if (store.selected.value?.id === outcome.contactId) {
      store.messages.value = addMessages(store.messages.value, [message]);
    }
    store.chats.value = chatsWithMessage(store.chats.value, contact, message, false);
    if (outcome.unread) c.unread.add(message.sender_id);
  });
  if (outcome.markRead) await markMessageRead(c, message);
}

async function markMessageRead(c: ChatController, message: Message): Promise<void> {
  const socket = c.socket;
  const data = {
    senderId: message.sender_id,
    receiverId: message.receiver_id,
    readAt: new Date().toISOString(),
    messageIds: [message.id],
  };
  // An answer about the counters computed before this read must not count the message again.
  await c.whileReading(message.sender_id, async () => {
    try {
      if (socket?.connected) await socket.request("messages_read", data);
      else await c.api.markRead(message.sender_id);
    } catch (error) {
      console.error("Failed to mark message read", error);
    }
  });
}

/** An unknown sender is fetched and added to the lists; on failure a stand-in is built. */
async function fetchSender(c: ChatController, message: Message): Promise<ChatUser> {
  let user: ChatUser;
  const stamp = bookStamp(c.store.presence.value);
  try {
    user = (await c.api.user(message.sender_id)).user;
  } catch (error) {
    console.error("Failed to fetch the sender", error);
    user = fallbackUser(message);
  }
  batch(() => {
    c.store.presence.value = learnList(c.store.presence.value, [user], stamp);
    user = live(c.store.presence.value, user);
    c.store.users.value = sortUsers(withUser(c.store.users.value, user));
  });
  return user;
}
