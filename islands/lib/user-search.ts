// The people list as the server pages it: the current Find Users filters, the pages loaded so far
// (store.users, so presence and block updates reach what is shown) and the server's counts of the
// whole filtered set. Every answer belongs to one query; an answer to an older query is dropped,
// so a slow answer can never overwrite the results of what the person typed since.
import { batch, signal } from "@preact/signals-react";
import { EMPTY_FILTERS, filtersActive, sortUsers, type UserFilters } from "./lists.ts";
import { bookStamp, learnList, livePresence, type PresenceBook } from "./presence-book.ts";
import type { ChatUser, PublicUser } from "./types.ts";

export const PEOPLE_PAGE_SIZE = 50;
/** Typing in the name box waits this long for the next key before asking the server. */
export const SEARCH_DEBOUNCE_MS = 300;

export interface PeoplePage {
  users: PublicUser[];
  nextCursor: string | null;
  /** The whole filtered set: on the first page only. */
  total?: number;
  online?: number;
}

/** What the server counted for a query, and who it said was online then (to follow presence after). */
export interface PeopleCount {
  total: number;
  online: number;
  reported: ReadonlyMap<number, boolean>;
}

/**
 * The server's online count moved on by what changed since in the list: each listed person whose
 * presence differs from what the server reported adds or removes one. People not listed are taken
 * as unchanged; the next reload counts them again.
 */
export function onlineNow(count: PeopleCount, users: readonly ChatUser[]): number {
  const now = new Map(users.map((u) => [u.id, u.is_online]));
  let online = count.online;
  for (const [id, wasOnline] of count.reported) {
    const isOnline = now.get(id);
    if (isOnline !== undefined && isOnline !== wasOnline) online += isOnline ? 1 : -1;
  }
  return Math.max(0, online);
}

/**
 * The server's `online_count` (everyone online, the viewer included) as the new baseline: the
 * people listed now are what it was counted with. Presence reaches a tab only for the people it
 * shows or talks with, so this is how arrivals elsewhere reach the counter.
 */
export function recounted(count: PeopleCount, online: number, users: readonly ChatUser[]): PeopleCount {
  return { ...count, online: Math.max(0, online - 1), reported: new Map(users.map((u): [number, boolean] => [u.id, u.is_online])) };
}

export function peopleQuery(filters: UserFilters, cursor: string | null, limit = PEOPLE_PAGE_SIZE): string {
  const params = new URLSearchParams({ limit: String(limit) });
  const name = filters.name.trim();
  if (name) params.set("q", name);
  if (filters.gender) params.set("gender", filters.gender);
  if (filters.orientation) params.set("orientation", filters.orientation);
  if (filters.country) params.set("country", filters.country);
  if (filters.minAge) params.set("minAge", filters.minAge);
  if (filters.maxAge) params.set("maxAge", filters.maxAge);
  if (filters.onlineOnly) params.set("online", "1");
  if (cursor) params.set("cursor", cursor);
  return params.toString();
}

export const sameFilters = (a: UserFilters, b: UserFilters): boolean =>
  (Object.keys(EMPTY_FILTERS) as (keyof UserFilters)[]).every((key) => a[key] === b[key]);

/** The part of the chat store this list writes. */
export interface PeopleStore {
  users: { value: ChatUser[] };
  usersLoading: { value: boolean };
  everyoneCount: { value: PeopleCount | null };
  presence: { value: PresenceBook };
}

const reportOf = (users: readonly PublicUser[]) => users.map((u): [number, boolean] => [u.id, u.is_online]);

/**
 * People first seen after a count was taken join its baseline as they were seen; people already
 * in it keep the state the count was taken with, or their changes since would be lost.
 */
function withReported(count: PeopleCount, users: readonly PublicUser[]): PeopleCount {
  const fresh = users.filter((u) => !count.reported.has(u.id));
  return fresh.length === 0 ? count : { ...count, reported: new Map([...count.reported, ...reportOf(fresh)]) };
}

export class PeopleList {
  /** The counts for the filters on screen; for no filters they are store.everyoneCount too. */
  readonly count = signal<PeopleCount | null>(null);
  readonly hasMore = signal(false);
  readonly loadingMore = signal(false);
  /** A new query is on its way; what is shown belongs to the previous one until it answers. */
  readonly searching = signal(false);
  private current: UserFilters = EMPTY_FILTERS;
  private query = 0;
  private cursor: string | null = null;

  constructor(
    private readonly store: PeopleStore,
    private readonly fetchPage: (query: string) => Promise<PeoplePage>,
  ) {}

  get filters(): UserFilters {
    return this.current;
  }

  /** Shows the first page for `filters`; the previous query's answers, even late ones, are ignored from now on. */
  async search(filters: UserFilters): Promise<void> {
    const query = ++this.query;
    this.current = filters;
    this.cursor = null;
    batch(() => {
      this.searching.value = true;
      this.hasMore.value = false;
      this.loadingMore.value = false;
    });
    try {
      const stamp = bookStamp(this.store.presence.value);
      const page = await this.fetchPage(peopleQuery(filters, null));
      if (query !== this.query) return;
      const count: PeopleCount = { total: page.total ?? page.users.length, online: page.online ?? 0, reported: new Map(reportOf(page.users)) };
      batch(() => {
        this.store.presence.value = learnList(this.store.presence.value, page.users, stamp);
        this.store.users.value = sortUsers(livePresence(this.store.presence.value, page.users));
        this.count.value = count;
        this.noteEveryone(filters, page.users);
        this.cursor = page.nextCursor ?? null;
        this.hasMore.value = this.cursor !== null;
      });
    } catch (error) {
      if (query === this.query) console.error("Failed to load users", error);
    } finally {
      if (query === this.query) {
        batch(() => {
          this.searching.value = false;
          this.store.usersLoading.value = false;
        });
      }
    }
  }

  /** The same filters again (someone new joined, a block was lifted). */
  reload(): Promise<void> {
    return this.search(this.current);
  }

  /** The next page of the query on screen, once at a time; nothing when all is loaded. */
  async loadMore(): Promise<void> {
    const cursor = this.cursor;
    if (cursor === null || this.loadingMore.value || this.searching.value) return;
    const query = this.query;
    this.loadingMore.value = true;
    try {
      const stamp = bookStamp(this.store.presence.value);
      const page = await this.fetchPage(peopleQuery(this.current, cursor));
      if (query !== this.query) return;
      batch(() => {
        // Someone who changed place in the order since (came online, went away) may come again: one row each.
        const shown = new Set(this.store.users.value.map((u) => u.id));
        const added = page.users.filter((u) => !shown.has(u.id));
        this.store.presence.value = learnList(this.store.presence.value, page.users, stamp);
        this.store.users.value = sortUsers(livePresence(this.store.presence.value, [...this.store.users.value, ...added]));
        if (this.count.value) this.count.value = withReported(this.count.value, added);
        this.noteEveryone(this.current, added);
        this.cursor = page.nextCursor ?? null;
        this.hasMore.value = this.cursor !== null;
      });
    } catch (error) {
      if (query === this.query) console.error("Failed to load more users", error);
    } finally {
      if (query === this.query) this.loadingMore.value = false;
    }
  }

  /** A search's people are part of everyone too: their presence changes then move the online counter. */
  private noteEveryone(filters: UserFilters, users: readonly PublicUser[]): void {
    const everyone = this.store.everyoneCount.value;
    if (!filtersActive(filters)) this.store.everyoneCount.value = this.count.value;
    else if (everyone) this.store.everyoneCount.value = withReported(everyone, users);
  }
}
