// The chat screen's state as signals. One store per mounted ChatApp (created from its props, so a
// server render never shares state between requests).
import { computed, signal } from "@preact/signals-react";
import { EMPTY_BOOK, type PresenceBook } from "./presence-book.ts";
import type { Refusal, SafetyDialog } from "./safety.ts";
import { onlineNow, type PeopleCount } from "./user-search.ts";
import type { ConnectionStatus } from "./socket.ts";
import type { BanNotice, ChatUser, LightboxImage, Message, OwnUser, SettingsSection, Tab, ViewMode, WarningNotice } from "./types.ts";

/** The ban page's content; `notice` is null when the socket closed with 4403 before saying why. */
export interface BanState {
  notice: BanNotice | null;
}

export function createStore(me: OwnUser) {
  const users = signal<ChatUser[]>([]);
  const everyoneCount = signal<PeopleCount | null>(null);
  const tab = signal<Tab>("users");
  const selected = signal<ChatUser | null>(null);
  const viewMode = signal<ViewMode>("chat");
  return {
    me: signal<OwnUser>(me),
    /** False until the browser has read local storage: the first render equals the server's. */
    ready: signal(false),
    connection: signal<ConnectionStatus>("idle"),
    /** The browser's own word on the network (navigator.onLine): false shows "You are offline". */
    networkOnline: signal(true),
    /** The people list as loaded so far, page by page, for the Find Users filters on screen (user-search.ts). */
    users,
    usersLoading: signal(true),
    /** The server's count of everyone (not only the loaded pages), for the online counter. */
    everyoneCount,
    chats: signal<ChatUser[]>([]),
    /**
     * Who is online: the one source the rows, the chat header and the profile read (presence-book.ts).
     * The lists' and `selected`'s own is_online are copies of the moment they were loaded or clicked.
     */
    presence: signal<PresenceBook>(EMPTY_BOOK),
    chatsLoading: signal(true),
    unreadTotal: signal(0),
    unreadByUser: signal<Record<number, number>>({}),
    tab,
    selected,
    viewMode,
    settingsSection: signal<SettingsSection | null>(null),
    messages: signal<Message[]>([]),
    messagesLoading: signal(false),
    loadingOlder: signal(false),
    hasMore: signal(false),
    cursor: signal<string | null>(null),
    typing: signal<Record<number, boolean>>({}),
    /** The message the next one answers (the quote above the input), or null. */
    replyTo: signal<Message | null>(null),
    /** My text message being edited in the input, or null. */
    editing: signal<Message | null>(null),
    /** A message to bring into view and highlight (a tapped quote), or null. */
    highlight: signal<number | null>(null),
    /** Raised whenever an own message is added: the list scrolls to the bottom. */
    ownMessageTick: signal(0),
    lightbox: signal<{ images: LightboxImage[]; index: number } | null>(null),
    /** People I blocked (true) or know I have not (false), as learnt in this page's life. */
    blocked: signal<Record<number, boolean>>({}),
    safetyDialog: signal<SafetyDialog | null>(null),
    /** The last refused send in a conversation (blocked, not accepting), shown above its input. */
    refusal: signal<Refusal | null>(null),
    /** Whether I have written to a person: their pictures show unblurred (safety/BlurredImage). */
    contacts: signal<Record<number, boolean>>({}),
    /** Pictures from strangers that I tapped to view, by message id. */
    revealed: signal<Record<number, true>>({}),
    /** Set while the 18+ confirmation is on screen: answers whoever asked (safety/adult-gate.ts). */
    adultPrompt: signal<((confirmed: boolean) => void) | null>(null),
    /** A call screen is open (calls/CallLayer.tsx): the toasts keep off it. */
    callOpen: signal(false),
    /** This tab is in Video Roulette (starting, searching or paired): it never rings (calls/CallLayer.tsx). */
    rouletteActive: signal(false),
    /** Set once this account is banned: the whole screen becomes the ban page (moderation/). */
    banned: signal<BanState | null>(null),
    /** A moderator's warnings not yet acknowledged, oldest first; the first is on screen. */
    warnings: signal<WarningNotice[]>([]),
    /** Counts yourself, as the spec's "online count plus one". */
    onlineCount: computed(() => {
      const count = everyoneCount.value;
      return (count ? onlineNow(count, users.value) : users.value.filter((u) => u.is_online).length) + 1;
    }),
    /** The contact whose chat is on screen in chat view, or null. */
    openChatId: computed(() =>
      selected.value && viewMode.value === "chat" && (tab.value === "users" || tab.value === "chats") ? selected.value.id : null,
    ),
  };
}

export type ChatStore = ReturnType<typeof createStore>;
