// Pure rules for the user and chat lists: sorting, search filters and presence updates.
import type { ChatUser, Message } from "./types.ts";

const time = (value: string | null | undefined) => {
  const t = value ? new Date(value).getTime() : NaN;
  return Number.isNaN(t) ? 0 : t;
};

/** User list: online first (most recently online first), then by last_seen, newest first. */
export function sortUsers<T extends ChatUser>(users: T[]): T[] {
  return [...users].sort((a, b) => {
    if (a.is_online !== b.is_online) return a.is_online ? -1 : 1;
    return time(b.last_seen) - time(a.last_seen);
  });
}

/** Chat list: latest message time, then online, then last_seen. */
export function sortChats<T extends ChatUser>(users: T[]): T[] {
  return [...users].sort((a, b) => {
    const byMessage = time(b.latest_message?.created_at) - time(a.latest_message?.created_at);
    if (byMessage !== 0) return byMessage;
    if (a.is_online !== b.is_online) return a.is_online ? -1 : 1;
    return time(b.last_seen) - time(a.last_seen);
  });
}

export interface UserFilters {
  name: string;
  gender: string;
  orientation: string;
  country: string;
  minAge: string;
  maxAge: string;
  onlineOnly: boolean;
}

export const EMPTY_FILTERS: UserFilters = {
  name: "",
  gender: "",
  orientation: "",
  country: "",
  minAge: "",
  maxAge: "",
  onlineOnly: false,
};

/**
 * The Find Users filters: name substring (case-insensitive, in the name or the username, as the
 * server matches it), exact gender, orientation and country_name, an age range (users with no age
 * are left out once a bound is set), online only. The server searches; this keeps what is shown
 * true to the filters as presence changes and people are added between answers.
 */
export function filterUsers<T extends ChatUser>(users: T[], f: UserFilters): T[] {
  const name = f.name.trim().toLowerCase();
  const min = f.minAge === "" ? null : Number(f.minAge);
  const max = f.maxAge === "" ? null : Number(f.maxAge);
  return users.filter((u) => {
    if (name && !u.name.toLowerCase().includes(name) && !u.username.toLowerCase().includes(name)) return false;
    if (f.gender && u.gender !== f.gender) return false;
    if (f.orientation && u.orientation !== f.orientation) return false;
    if (f.country && u.country_name !== f.country) return false;
    if (min !== null || max !== null) {
      if (u.age === null || u.age === undefined) return false;
      if (min !== null && u.age < min) return false;
      if (max !== null && u.age > max) return false;
    }
    if (f.onlineOnly && !u.is_online) return false;
    return true;
  });
}

export const filtersActive = (f: UserFilters) =>
  Boolean(f.name.trim() || f.gender || f.orientation || f.country || f.minAge || f.maxAge || f.onlineOnly);

/** Chat list search: name or username, case-insensitive. */
export function searchChats<T extends ChatUser>(users: T[], query: string): T[] {
  const q = query.trim().toLowerCase();
  if (!q) return users;
  return users.filter((u) => u.name.toLowerCase().includes(q) || u.username.toLowerCase().includes(q));
}

/** Presence: online, or offline with last_seen now. */
export function withPresence<T extends ChatUser>(users: T[], userId: number, online: boolean, now: Date = new Date()): T[] {
  return users.map((u) =>
    u.id === userId ? { ...u, is_online: online, last_seen: online ? u.last_seen : now.toISOString() } : u,
  );
}

/** Adds a user to a list unless present. */
export function withUser<T extends ChatUser>(users: T[], user: T): T[] {
  return users.some((u) => u.id === user.id) ? users : [...users, user];
}

/** A stand-in when an unknown sender cannot be fetched: built from the message's sender name. */
export function fallbackUser(message: Message): ChatUser {
  return {
    id: message.sender_id,
    username: message.sender_name,
    name: message.sender_name,
    gender: "",
    orientation: "heterosexual",
    age: null,
    country_code: null,
    country_name: null,
    avatar_url: null,
    is_online: true,
    last_seen: message.created_at,
    created_at: message.created_at,
    is_guest: false,
    profile: null,
    interests: [],
    languages: [],
  };
}

/**
 * The chat list after a message to or from `contact`: its latest message set and, when `unread`,
 * its unread count raised. A contact not yet listed is added.
 */
export function chatsWithMessage(chats: ChatUser[], contact: ChatUser, message: Message, unread: boolean): ChatUser[] {
  const existing = chats.find((c) => c.id === contact.id);
  const base: ChatUser = existing ?? { ...contact, unread_count: 0 };
  const updated: ChatUser = {
    ...base,
    latest_message: message,
    unread_count: (base.unread_count ?? 0) + (unread ? 1 : 0),
  };
  return sortChats([updated, ...chats.filter((c) => c.id !== contact.id)]);
}
