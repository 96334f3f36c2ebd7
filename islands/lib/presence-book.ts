// Whether each person is online, as this tab last learnt it: the one source every place that shows
// presence reads (the sidebar rows, the chat header, the profile). The lists and the selected
// contact are copies taken at different times (a list answer, a click), so reading presence from
// them let the header say "Offline" while a reloaded row said "Online" (issue 19).
//
// Two sources write it: socket events (user_online / user_offline) and list answers (people, chat
// list). An answer asked for before an event about a person arrived is older news than the event,
// so it does not overwrite it; every other answer does, since it is the server's word.
import type { ChatUser } from "./types.ts";

interface Fact {
  online: boolean;
  lastSeen: string | null;
  /** The event count when an event last set this fact; 0 when only lists ever did. */
  event: number;
}

export interface PresenceBook {
  /** Events learnt so far: a list answer asked for at count n is older than event n + 1. */
  readonly events: number;
  readonly facts: ReadonlyMap<number, Fact>;
}

export const EMPTY_BOOK: PresenceBook = { events: 0, facts: new Map() };

/** The stamp to take when a list is asked for, and give back with its answer. */
export const bookStamp = (book: PresenceBook): number => book.events;

/** A user_online / user_offline event: online, or offline with last_seen now. */
export function learnEvent(book: PresenceBook, userId: number, online: boolean, now: Date = new Date()): PresenceBook {
  const events = book.events + 1;
  const before = book.facts.get(userId);
  const facts = new Map(book.facts);
  facts.set(userId, { online, lastSeen: online ? (before?.lastSeen ?? null) : now.toISOString(), event: events });
  return { events, facts };
}

/** A list answer asked for at `stamp`: what it says about each person, unless an event since says otherwise. */
export function learnList(book: PresenceBook, users: readonly ChatUser[], stamp: number): PresenceBook {
  let facts: Map<number, Fact> | null = null;
  for (const u of users) {
    const before = book.facts.get(u.id);
    if (before && before.event > stamp) continue;
    if (before && before.online === u.is_online && before.lastSeen === u.last_seen) continue;
    facts ??= new Map(book.facts);
    facts.set(u.id, { online: u.is_online, lastSeen: u.last_seen, event: before?.event ?? 0 });
  }
  return facts ? { events: book.events, facts } : book;
}

/** `user` with the presence the book holds (the user's own fields when the book has never heard of them). */
export function live<T extends ChatUser>(book: PresenceBook, user: T): T {
  const fact = book.facts.get(user.id);
  if (!fact || (fact.online === user.is_online && fact.lastSeen === user.last_seen)) return user;
  return { ...user, is_online: fact.online, last_seen: fact.lastSeen };
}

/** A list as the book has it: what a newer event said wins over an older answer's copy (for sorting and filtering). */
export function livePresence<T extends ChatUser>(book: PresenceBook, users: readonly T[]): T[] {
  return users.map((u) => live(book, u));
}

/** Whether the book says `userId` is online; null when it has never heard of them. */
export function isOnline(book: PresenceBook, userId: number): boolean | null {
  return book.facts.get(userId)?.online ?? null;
}
