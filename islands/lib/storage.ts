// The local storage keys of spec section 9, and the rule that restores the last selection.
// The session token is not one of them (issue 9): the chat page hands it to the island as a prop
// on every load (the httpOnly cookie carries the session across reloads), and it lives only in
// memory, where a script injected later cannot find it in storage.
import type { ChatUser, SettingsSection, Tab, ViewMode } from "./types.ts";

export const KEYS = {
  userId: "userId",
  selectedUserId: "selectedUserId",
  selectedViewMode: "selectedViewMode",
  activeTab: "activeTab",
  selectedSettingsSection: "selectedSettingsSection",
  /** The user id that confirmed turning the nudity blur off once; later it turns off without asking (issue 12). */
  nudityBlurOffConfirmed: "nudityBlurOffConfirmed",
} as const;

type Key = (typeof KEYS)[keyof typeof KEYS];

/** localStorage, or nothing when it is unavailable (server render, private mode quotas). */
function store(): Storage | null {
  try {
    return typeof localStorage === "undefined" ? null : localStorage;
  } catch {
    return null;
  }
}

export function readKey(key: Key): string | null {
  try {
    return store()?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

export function writeKey(key: Key, value: string | number | null): void {
  try {
    const s = store();
    if (!s) return;
    if (value === null) s.removeItem(key);
    else s.setItem(key, String(value));
  } catch {
    // A full or blocked storage only costs the restore on the next visit.
  }
}

/** Where versions before issue 9 kept the session token. */
const LEGACY_TOKEN_KEY = "token";

/** Removes a token an earlier version left in localStorage; called on every island page load. */
export function forgetStoredToken(): void {
  try {
    store()?.removeItem(LEGACY_TOKEN_KEY);
  } catch {
    // Blocked storage holds nothing to remove.
  }
}

/** The session ended (logout, ban, revoked): nothing about it stays in this browser. */
export function forgetSession(): void {
  forgetStoredToken();
  writeKey(KEYS.userId, null);
  writeKey(KEYS.nudityBlurOffConfirmed, null);
}

const TABS: Tab[] = ["users", "chats", "video", "settings"];

export interface SavedState {
  tab: Tab;
  selectedUserId: number | null;
  viewMode: ViewMode;
  settingsSection: SettingsSection | null;
}

export function readSaved(): SavedState {
  const tab = readKey(KEYS.activeTab);
  const id = Number(readKey(KEYS.selectedUserId));
  return {
    tab: TABS.includes(tab as Tab) ? (tab as Tab) : "users",
    selectedUserId: Number.isInteger(id) && id > 0 ? id : null,
    viewMode: readKey(KEYS.selectedViewMode) === "profile" ? "profile" : "chat",
    settingsSection: settingsSectionOf(readKey(KEYS.selectedSettingsSection)),
  };
}

/**
 * The saved user is looked up in the users list, or in the chat users list when the tab is
 * chats. Null means "not found": the caller clears the saved selection.
 */
export function findSavedUser(saved: SavedState, users: ChatUser[], chatUsers: ChatUser[]): ChatUser | null {
  if (saved.selectedUserId === null) return null;
  const list = saved.tab === "chats" ? chatUsers : users;
  return list.find((u) => u.id === saved.selectedUserId) ?? null;
}

export function saveSelection(user: ChatUser | null, viewMode: ViewMode): void {
  writeKey(KEYS.selectedUserId, user ? user.id : null);
  writeKey(KEYS.selectedViewMode, user ? viewMode : null);
}

const SETTINGS_SECTIONS: readonly SettingsSection[] = ["profile", "blocked", "privacy", "safety", "notifications"];

function settingsSectionOf(value: unknown): SettingsSection | null {
  return SETTINGS_SECTIONS.find((section) => section === value) ?? null;
}
