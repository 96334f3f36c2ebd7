// What the chat screen does: loading lists and messages, selecting, sending, uploading and keeping
// the unread counters right. Components call these actions; realtime events arrive through
// events.ts. The API, socket and toasts are handed in, so tests can drive it without a browser.
import { batch } from "@preact/signals-react";
import type { Api } from "./api.ts";
import { batches, acceptableFiles } from "./files.ts";
import { loadFailed } from "./load-failure.ts";
import { addOwnMessage } from "./inbox.ts";
import { sortChats } from "./lists.ts";
import { addMessages, clientMessageId } from "./messages.ts";
import { bookStamp, learnList, livePresence } from "./presence-book.ts";
import type { RealtimeClient } from "./socket.ts";
import { showRefusal } from "./safety.ts";
import { findSavedUser, KEYS, readSaved, saveSelection, writeKey } from "./storage.ts";
import type { ChatStore } from "./store.ts";
import type { ChatUser, Message, SettingsSection, Tab, UnreadItem, ViewMode } from "./types.ts";
import { Timers } from "./timers.ts";
import { UnreadCounters } from "./unread.ts";
import { PeopleList } from "./user-search.ts";

export type RealtimePort = Pick<RealtimeClient, "on" | "send" | "request" | "connected">;
export interface Notifier {
  success(text: string): void;
  error(text: string): void;
  info(text: string): void;
}

export const INITIAL_UNREAD_DELAY_MS = 500;
export const TAB_UNREAD_DELAY_MS = 100;
/** After an answer about the counters was refused for a change made here, ask again this soon... */
export const STALE_UNREAD_RETRY_MS = 300;
/** ...but at most this many times in a row: a stream of messages must not become a stream of requests. */
export const STALE_UNREAD_RETRIES = 3;

const countsOf = (items: { id: number; count: number | undefined }[]): Record<number, number> =>
  Object.fromEntries(items.filter((i) => (i.count ?? 0) > 0).map((i) => [i.id, i.count ?? 0]));

export class ChatController {
  private inflightCursor: string | null = null;
  private readonly timers = new Timers();
  private staleRetries = 0;
  private retryPending = false;
  /** The lists `start` loads, settled either way: a catch-up reads after them. */
  private firstLists: Promise<void> = Promise.resolve();
  readonly unread: UnreadCounters;
  /** All Users and Find Users: searched and paged on the server. */
  readonly people: PeopleList;

  constructor(
    readonly store: ChatStore,
    readonly api: Api,
    private readonly realtime: () => RealtimePort | null,
    readonly notify: Notifier,
  ) {
    this.unread = new UnreadCounters(store);
    this.people = new PeopleList(store, (query) => api.users(query));
  }

  get socket(): RealtimePort | null {
    return this.realtime();
  }

  /**
   * Loads the lists, restores the saved tab and selection, and schedules the first counters.
   * `openChatId`: a notification's link (`/?chat=<id>`) opens that chat instead of the saved one.
   */
  async start(openChatId: number | null = null): Promise<void> {
    const saved = readSaved();
    batch(() => {
      this.store.tab.value = saved.tab;
      this.store.settingsSection.value = saved.settingsSection;
      this.store.ready.value = true;
    });
    this.timers.later(() => void this.refreshUnread(), INITIAL_UNREAD_DELAY_MS);
    const lists = Promise.all([this.loadUsers(), this.loadChats()]);
    this.firstLists = lists.then(
      () => {},
      () => {},
    );
    await lists;
    if (openChatId !== null && this.openChat(openChatId)) return;
    if (saved.selectedUserId === null) return;
    const user = findSavedUser(saved, this.store.users.value, this.store.chats.value);
    if (user) this.select(user, saved.viewMode);
    else saveSelection(null, "chat");
  }

  /**
   * The server holds this page's first connection now (it has answered on it). The lists loaded
   * at start were read before that, so a message that came in between was in none of them and
   * came live to no socket, while its sender was told it was delivered. The chat list once more,
   * after the first one (an answer that left earlier must not land last), and the open chat's
   * page when that list shows a newer last message there than the chat does, marked read.
   */
  async catchUp(): Promise<void> {
    await this.firstLists;
    await this.loadChats();
    const open = this.store.selected.value;
    if (!open) return;
    const latest = this.store.chats.value.find((chat) => chat.id === open.id)?.latest_message;
    if (!latest || this.store.messages.value.some((m) => m.id === latest.id)) return;
    await this.loadMessages(open.id);
    // Read as it shows, as a message that comes live into the open chat is.
    if (this.store.selected.value?.id === open.id && this.store.viewMode.value === "chat") await this.markChatRead(open.id);
  }

  /** After a reconnect: whatever happened while the socket was down. */
  resync(): void {
    void this.loadChats();
    void this.refreshUnread();
    const open = this.store.selected.value;
    if (open) void this.loadMessages(open.id);
  }

  stop(): void {
    this.timers.clear();
  }


  /** The first page again, for the filters on screen. */
  loadUsers(): Promise<void> {
    return this.people.reload();
  }

  async loadChats(): Promise<void> {
    const stamp = this.unread.stamp();
    const presenceStamp = bookStamp(this.store.presence.value);
    let users: ChatUser[] = [];
    try {
      users = (await this.api.chatUsers()).users;
    } catch (error) {
      loadFailed("Chat list failed, trying the legacy list", error);
      try {
        users = (await this.api.legacyChatUsers()).users;
      } catch (legacyError) {
        loadFailed("Failed to load chat users", legacyError);
      }
    }
    batch(() => {
      this.store.presence.value = learnList(this.store.presence.value, users, presenceStamp);
      this.store.chats.value = sortChats(livePresence(this.store.presence.value, users));
      this.store.chatsLoading.value = false;
      const known: Record<number, boolean> = {};
      for (const u of users) if (u.is_contact !== undefined) known[u.id] = u.is_contact;
      this.store.contacts.value = { ...this.store.contacts.value, ...known };
      // The list's counts speak for the people in it, as of when it was asked for.
      this.unread.applyServer(countsOf(users.map((u) => ({ id: u.id, count: u.unread_count }))), stamp, false);
    });
    this.retryUnreadIfOwed();
  }

  /**
   * The per-person counts; the Chats badge is their sum (the per-person list names everyone the
   * total counts, so asking for the total as well could only disagree with it).
   */
  async refreshUnread(): Promise<void> {
    const stamp = this.unread.stamp();
    let items: UnreadItem[];
    try {
      items = (await this.api.unreadPerUser()).items;
    } catch (error) {
      loadFailed("Failed to load unread counters", error);
      return;
    }
    if (this.unread.applyServer(countsOf(items.map((i) => ({ id: i.sender_id, count: i.unread_count }))), stamp, true)) {
      this.staleRetries = 0;
    }
    this.retryUnreadIfOwed();
  }

  /** Asks for the counters again when an answer was refused for a change made here (unread.ts). */
  private retryUnreadIfOwed(): void {
    if (!this.unread.refreshOwed || this.retryPending || this.staleRetries >= STALE_UNREAD_RETRIES) return;
    this.staleRetries += 1;
    this.retryPending = true;
    this.timers.later(() => {
      this.retryPending = false;
      void this.refreshUnread();
    }, STALE_UNREAD_RETRY_MS);
  }

  selectTab(tab: Tab): void {
    this.store.tab.value = tab;
    writeKey(KEYS.activeTab, tab);
    this.timers.later(() => void this.refreshUnread(), TAB_UNREAD_DELAY_MS);
    const open = this.store.openChatId.value;
    if (open !== null && (this.store.unreadByUser.value[open] ?? 0) > 0) void this.markChatRead(open);
  }

  selectSettingsSection(section: SettingsSection | null): void {
    this.store.settingsSection.value = section;
    writeKey(KEYS.selectedSettingsSection, section);
  }

  /** Selects a contact in chat or profile view; a new contact clears and reloads the chat. */
  select(user: ChatUser, viewMode: ViewMode): void {
    const changed = this.store.selected.value?.id !== user.id;
    batch(() => {
      this.store.selected.value = user;
      this.store.viewMode.value = viewMode;
      if (changed) {
        this.store.messages.value = [];
        this.store.cursor.value = null;
        this.store.hasMore.value = false;
        this.store.lightbox.value = null;
        this.store.refusal.value = null;
        this.store.replyTo.value = null;
        this.store.editing.value = null;
        this.store.highlight.value = null;
      }
    });
    saveSelection(user, viewMode);
    if (changed) void this.loadMessages(user.id);
    if (viewMode === "chat") void this.markChatRead(user.id);
  }

  setViewMode(viewMode: ViewMode): void {
    const user = this.store.selected.value;
    if (user) this.select(user, viewMode);
  }

  clearSelection(): void {
    batch(() => {
      this.store.selected.value = null;
      this.store.messages.value = [];
      this.store.lightbox.value = null;
    });
    saveSelection(null, "chat");
  }

  async loadMessages(contactId: number): Promise<void> {
    this.store.messagesLoading.value = true;
    this.inflightCursor = null;
    try {
      const page = await this.api.messages(contactId, null);
      this.applyPage(contactId, page);
    } catch (error) {
      loadFailed("Failed to load messages", error);
    } finally {
      if (this.store.selected.value?.id === contactId) this.store.messagesLoading.value = false;
    }
  }

  /** Adds a fetched page to the open chat, unless the user has moved to another chat meanwhile. */
  private applyPage(contactId: number, page: Awaited<ReturnType<Api["messages"]>>): void {
    if (this.store.selected.value?.id !== contactId) return;
    const me = this.store.me.value.id;
    // An older server without `contact`: any message of mine on the page proves it.
    const contact = page.contact ?? page.messages.some((m) => m.sender_id === me);
    batch(() => {
      if (contact || this.store.contacts.value[contactId] === undefined) {
        this.store.contacts.value = { ...this.store.contacts.value, [contactId]: contact };
      }
      this.store.messages.value = addMessages(this.store.messages.value, page.messages);
      this.store.hasMore.value = page.hasMore;
      this.store.cursor.value = page.oldestMessageTime;
    });
  }

  /** The next older page, unless none is left or the same cursor is already being fetched. */
  async loadOlder(): Promise<void> {
    const contactId = this.store.selected.value?.id;
    const cursor = this.store.cursor.value;
    if (!contactId || !cursor || !this.store.hasMore.value || this.inflightCursor === cursor) return;
    this.inflightCursor = cursor;
    this.store.loadingOlder.value = true;
    try {
      const page = await this.api.messages(contactId, cursor);
      this.applyPage(contactId, page);
    } catch (error) {
      loadFailed("Failed to load older messages", error);
    } finally {
      this.inflightCursor = null;
      this.store.loadingOlder.value = false;
    }
  }

  /** Marks the contact's messages to me as read and clears their unread count. */
  async markChatRead(senderId: number): Promise<void> {
    await this.whileReading(senderId, async () => {
      try {
        await this.api.markRead(senderId);
      } catch (error) {
        loadFailed("Failed to mark messages read", error);
      }
    });
  }

  /** Runs a mark-read with the sender's count held at zero until the server has it (unread.ts). */
  async whileReading(senderId: number, markRead: () => Promise<void>): Promise<void> {
    this.unread.beginRead(senderId);
    try {
      await markRead();
    } finally {
      this.unread.endRead(senderId);
      this.retryUnreadIfOwed();
    }
  }

  /** Sends text over the socket; false (and only a console error) when it cannot be sent. */
  sendText(text: string): boolean {
    const socket = this.socket;
    const contact = this.store.selected.value;
    const content = text.trim();
    if (!socket?.connected || !contact?.id || !content) {
      console.error("Cannot send message: needs a connected socket, a selected contact and text");
      return false;
    }
    // A quote of another chat (the person switched chats meanwhile) is not sent along.
    const replyTo = this.store.replyTo.value;
    const replyToId = replyTo && (replyTo.sender_id === contact.id || replyTo.receiver_id === contact.id) ? replyTo.id : undefined;
    this.store.replyTo.value = null;
    socket
      .request("send_message", { receiverId: contact.id, content, messageType: "text", clientMessageId: clientMessageId(), ...(replyToId ? { replyToId } : {}) })
      .then(({ message }) => addOwnMessage(this, message))
      .catch(async (error: unknown) => {
        if (!(await showRefusal(this, contact.id, error, content))) console.error("Failed to send message", error);
      });
    return true;
  }

  /** One file goes through the single upload, several through the multi-upload (10 at a time). */
  async uploadFiles(files: File[]): Promise<void> {
    const contact = this.store.selected.value;
    const accepted = acceptableFiles(files);
    if (!contact || accepted.length === 0) return;
    try {
      if (accepted.length === 1 && accepted[0]) {
        addOwnMessage(this, (await this.api.uploadFile(contact.id, accepted[0])).message);
        return;
      }
      for (const group of batches(accepted)) {
        const { messages } = await this.api.uploadFiles(contact.id, group);
        for (const message of messages) addOwnMessage(this, message);
      }
    } catch (error) {
      if (!(await showRefusal(this, contact.id, error))) console.error("Failed to upload files", error);
    }
  }

  /** A change to messages, applied to the open chat and to the chat list's latest messages alike. */
  applyToMessages(change: (list: Message[]) => Message[]): void {
    const { store } = this;
    batch(() => {
      store.messages.value = change(store.messages.value);
      store.chats.value = store.chats.value.map((u) => {
        const latest = u.latest_message;
        if (!latest) return u;
        const [next] = change([latest]);
        return next && next !== latest ? { ...u, latest_message: next } : u;
      });
    });
  }

  /** Shows the chat with `id` on the Chats tab (a clicked notification); false when the lists do not have them. */
  openChat(id: number): boolean {
    const user = this.store.chats.value.find((u) => u.id === id) ?? this.knownUser(id);
    if (!user) return false;
    this.selectTab("chats");
    this.select(user, "chat");
    return true;
  }

  knownUser(id: number): ChatUser | null {
    return this.store.users.value.find((u) => u.id === id) ?? this.store.chats.value.find((u) => u.id === id) ?? null;
  }
}
