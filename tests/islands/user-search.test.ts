// The people list's paging and its answers' order: an older query's answer, however late, never
// replaces a newer one's; pages are appended once each; the counters follow presence.
import { describe, expect, test } from "bun:test";
import { signal } from "@preact/signals-react";
import { EMPTY_FILTERS, withPresence } from "../../islands/lib/lists.ts";
import type { ChatUser } from "../../islands/lib/types.ts";
import { EMPTY_BOOK } from "../../islands/lib/presence-book.ts";
import { onlineNow, PeopleList, peopleQuery, type PeopleCount, type PeoplePage } from "../../islands/lib/user-search.ts";
import { user } from "./fixtures.ts";

/** A server whose answers the test releases one by one, in any order. */
function scripted() {
  const pending: { query: string; answer: (page: PeoplePage) => void }[] = [];
  const fetchPage = (query: string) => new Promise<PeoplePage>((answer) => pending.push({ query, answer }));
  const take = (part: string) => {
    const index = pending.findIndex((p) => p.query.includes(part));
    if (index < 0) throw new Error(`no request with ${part}: ${pending.map((p) => p.query).join(" | ")}`);
    return pending.splice(index, 1)[0]!;
  };
  return { pending, fetchPage, take };
}

function peopleList(fetchPage: (query: string) => Promise<PeoplePage>) {
  const store = { users: signal<ChatUser[]>([]), usersLoading: signal(true), everyoneCount: signal<PeopleCount | null>(null), presence: signal(EMPTY_BOOK) };
  return { store, list: new PeopleList(store, fetchPage) };
}

const settle = () => new Promise((r) => setTimeout(r, 0));
const ids = (users: ChatUser[]) => users.map((u) => u.id);

describe("answers out of order", () => {
  test("an older query's answer arriving last does not overwrite the newer query's results", async () => {
    const server = scripted();
    const { store, list } = peopleList(server.fetchPage);
    const older = list.search({ ...EMPTY_FILTERS, name: "an" });
    const newer = list.search({ ...EMPTY_FILTERS, name: "anna" });
    server.take("q=anna").answer({ users: [user({ id: 1, name: "Anna" })], nextCursor: null, total: 1, online: 0 });
    await newer;
    server.take("q=an").answer({ users: [user({ id: 2, name: "Andy" }), user({ id: 1, name: "Anna" })], nextCursor: "0.1.2", total: 9, online: 3 });
    await older;
    expect(ids(store.users.value)).toEqual([1]);
    expect(list.count.value).toMatchObject({ total: 1, online: 0 });
    expect(list.hasMore.value).toBe(false);
    expect(list.searching.value).toBe(false);
  });

  test("a page of the previous query that comes back after a new search is dropped", async () => {
    const server = scripted();
    const { store, list } = peopleList(server.fetchPage);
    const first = list.search(EMPTY_FILTERS);
    server.take("limit=50").answer({ users: [user({ id: 1 })], nextCursor: "0.5.1", total: 3, online: 0 });
    await first;
    const more = list.loadMore();
    const search = list.search({ ...EMPTY_FILTERS, gender: "male" });
    server.take("gender=male").answer({ users: [user({ id: 7, gender: "male" })], nextCursor: null, total: 1, online: 0 });
    await search;
    server.take("cursor=0.5.1").answer({ users: [user({ id: 2 }), user({ id: 3 })], nextCursor: null });
    await more;
    expect(ids(store.users.value)).toEqual([7]);
    expect(list.loadingMore.value).toBe(false);
  });
});

describe("paging", () => {
  test("asks for the next page with the cursor, appends each person once and stops at the last page", async () => {
    const server = scripted();
    const { store, list } = peopleList(server.fetchPage);
    const first = list.search({ ...EMPTY_FILTERS, country: "Japan", onlineOnly: true });
    const firstRequest = server.take("limit=50");
    expect(firstRequest.query).toBe("limit=50&country=Japan&online=1");
    firstRequest.answer({ users: [user({ id: 1, is_online: true }), user({ id: 2, is_online: true })], nextCursor: "1.100.2", total: 3, online: 3 });
    await first;
    expect(list.hasMore.value).toBe(true);
    const more = list.loadMore();
    // One page at a time: a second call while one is on its way asks nothing.
    await list.loadMore();
    expect(server.pending).toHaveLength(1);
    // Person 2 moved in the order meanwhile and comes again: one row each.
    server.take("cursor=1.100.2").answer({ users: [user({ id: 2, is_online: true }), user({ id: 3, is_online: true })], nextCursor: null });
    await more;
    expect(ids(store.users.value)).toEqual([1, 2, 3]);
    expect(list.hasMore.value).toBe(false);
    await list.loadMore();
    expect(server.pending).toHaveLength(0);
  });

  test("keeps what is shown when a page fails, and may ask again", async () => {
    let fail = true;
    const { store, list } = peopleList(async (query) => {
      if (query.includes("cursor") && fail) throw new Error("offline");
      return query.includes("cursor") ? { users: [user({ id: 2 })], nextCursor: null } : { users: [user({ id: 1 })], nextCursor: "0.1.1", total: 2, online: 0 };
    });
    const errors = console.error;
    console.error = () => {};
    try {
      await list.search(EMPTY_FILTERS);
      await list.loadMore();
      expect(ids(store.users.value)).toEqual([1]);
      expect(list.hasMore.value).toBe(true);
      fail = false;
      await list.loadMore();
      expect(ids(store.users.value)).toEqual([1, 2]);
    } finally {
      console.error = errors;
    }
  });

  test("builds the query from the filters, leaving out the empty ones", () => {
    expect(peopleQuery(EMPTY_FILTERS, null)).toBe("limit=50");
    expect(peopleQuery({ ...EMPTY_FILTERS, name: "  50%_x ", minAge: "20", maxAge: "30", orientation: "bisexual" }, "0.1.2", 10)).toBe(
      "limit=10&q=50%25_x&orientation=bisexual&minAge=20&maxAge=30&cursor=0.1.2",
    );
  });
});

describe("counters", () => {
  test("the online count is the server's for everyone, moved on by presence changes of the people listed", async () => {
    const { store, list } = peopleList(async () => ({
      users: [user({ id: 1, is_online: true }), user({ id: 2 })],
      nextCursor: "0.1.2",
      total: 500,
      online: 120,
    }));
    await list.search(EMPTY_FILTERS);
    const online = () => onlineNow(store.everyoneCount.value!, store.users.value);
    expect(online()).toBe(120);
    store.users.value = withPresence(store.users.value, 2, true);
    expect(online()).toBe(121);
    store.users.value = withPresence(store.users.value, 1, false);
    store.users.value = withPresence(store.users.value, 2, false);
    expect(online()).toBe(119);
  });

  test("a search keeps the everyone count and has its own", async () => {
    const { store, list } = peopleList(async (query) =>
      query.includes("q=")
        ? { users: [user({ id: 5, is_online: true })], nextCursor: null, total: 1, online: 1 }
        : { users: [user({ id: 1, is_online: true })], nextCursor: null, total: 40, online: 12 },
    );
    await list.search(EMPTY_FILTERS);
    await list.search({ ...EMPTY_FILTERS, name: "x" });
    expect(store.everyoneCount.value).toMatchObject({ total: 40, online: 12 });
    expect(list.count.value).toMatchObject({ total: 1, online: 1 });
    expect(onlineNow(store.everyoneCount.value!, store.users.value)).toBe(12);
  });

  test("someone first seen in a search who comes online raises the everyone count too", async () => {
    const { store, list } = peopleList(async (query) =>
      query.includes("q=")
        ? { users: [user({ id: 9 })], nextCursor: null, total: 1, online: 0 }
        : { users: [user({ id: 1 })], nextCursor: "0.1.1", total: 80, online: 0 },
    );
    await list.search(EMPTY_FILTERS);
    await list.search({ ...EMPTY_FILTERS, name: "far down the list" });
    store.users.value = withPresence(store.users.value, 9, true);
    expect(onlineNow(store.everyoneCount.value!, store.users.value)).toBe(1);
    expect(onlineNow(list.count.value!, store.users.value)).toBe(1);
  });
});
