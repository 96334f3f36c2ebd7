import { describe, expect, test } from "bun:test";
import { chatsWithMessage, EMPTY_FILTERS, filterUsers, searchChats, sortChats, sortUsers, withPresence } from "../../islands/lib/lists.ts";
import { message, user } from "./fixtures.ts";

describe("sorting", () => {
  test("the user list puts online people first, most recently online first, then by last_seen", () => {
    const list = [
      user({ id: 1, is_online: false, last_seen: "2026-11-22T09:00:00.000Z" }),
      user({ id: 2, is_online: true, last_seen: "2026-11-22T08:00:00.000Z" }),
      user({ id: 3, is_online: false, last_seen: "2026-11-22T11:00:00.000Z" }),
      user({ id: 4, is_online: true, last_seen: "2026-11-22T10:00:00.000Z" }),
    ];
    expect(sortUsers(list).map((u) => u.id)).toEqual([4, 2, 3, 1]);
  });

  test("the chat list sorts by latest message, then online, then last_seen", () => {
    const list = [
      user({ id: 1, latest_message: message({ created_at: "2026-11-22T09:00:00.000Z" }) }),
      user({ id: 2, latest_message: message({ created_at: "2026-11-22T10:00:00.000Z" }) }),
      user({ id: 3, latest_message: null, is_online: false, last_seen: "2026-11-22T12:00:00.000Z" }),
      user({ id: 4, latest_message: null, is_online: true, last_seen: "2026-11-22T08:00:00.000Z" }),
      user({ id: 5, latest_message: null, is_online: false, last_seen: "2026-11-22T13:00:00.000Z" }),
    ];
    expect(sortChats(list).map((u) => u.id)).toEqual([2, 1, 4, 5, 3]);
  });
});

describe("Find Users filters", () => {
  const people = [
    user({ id: 1, name: "Anna Berg", gender: "female", orientation: "bisexual", country_name: "Germany", age: 25, is_online: true }),
    user({ id: 2, name: "Bernd", gender: "male", orientation: "heterosexual", country_name: "Austria", age: 40 }),
    user({ id: 3, name: "Joanna", gender: "female", orientation: "heterosexual", country_name: "Germany", age: null, is_online: true }),
  ];
  const ids = (f: Partial<typeof EMPTY_FILTERS>) => filterUsers(people, { ...EMPTY_FILTERS, ...f }).map((u) => u.id);

  test("matches a name substring without regard to case", () => expect(ids({ name: "ANNA" })).toEqual([1, 3]));
  test("matches the username too, as the server's search does, so no server answer is hidden", () => {
    const list = [user({ id: 7, name: "Nobody", username: "hidden_Handle" }), user({ id: 8, name: "Other", username: "other" })];
    expect(filterUsers(list, { ...EMPTY_FILTERS, name: "handle" }).map((u) => u.id)).toEqual([7]);
  });
  test("matches gender, orientation and country exactly", () => {
    expect(ids({ gender: "female" })).toEqual([1, 3]);
    expect(ids({ orientation: "heterosexual" })).toEqual([2, 3]);
    expect(ids({ country: "Germany" })).toEqual([1, 3]);
    expect(ids({ country: "German" })).toEqual([]);
  });
  test("leaves out people with no age once an age bound is set", () => {
    expect(ids({ minAge: "18" })).toEqual([1, 2]);
    expect(ids({ maxAge: "30" })).toEqual([1]);
    expect(ids({ minAge: "26", maxAge: "40" })).toEqual([2]);
  });
  test("keeps only online people when asked", () => expect(ids({ onlineOnly: true })).toEqual([1, 3]));
});

describe("chat list", () => {
  test("search matches name or username without regard to case", () => {
    const list = [user({ id: 1, name: "Zoe", username: "zz" }), user({ id: 2, name: "Max", username: "ZOEfan" })];
    expect(searchChats(list, "zoe").map((u) => u.id)).toEqual([1, 2]);
    expect(searchChats(list, "  ").map((u) => u.id)).toEqual([1, 2]);
    expect(searchChats(list, "nobody")).toEqual([]);
  });

  test("a new message moves the conversation to the top and may raise its unread count", () => {
    const a = user({ id: 1, latest_message: message({ created_at: "2026-11-22T09:00:00.000Z" }), unread_count: 2 });
    const b = user({ id: 2, latest_message: message({ created_at: "2026-11-22T10:00:00.000Z" }) });
    const next = chatsWithMessage([b, a], a, message({ created_at: "2026-11-22T11:00:00.000Z" }), true);
    expect(next.map((u) => u.id)).toEqual([1, 2]);
    expect(next[0]?.unread_count).toBe(3);
  });

  test("a conversation with someone new is added", () => {
    const stranger = user({ id: 9 });
    const next = chatsWithMessage([], stranger, message({ sender_id: 9 }), true);
    expect(next.map((u) => [u.id, u.unread_count])).toEqual([[9, 1]]);
  });

  test("going offline sets last_seen to now", () => {
    const now = new Date("2026-11-22T12:34:56.000Z");
    const [u] = withPresence([user({ id: 1, is_online: true })], 1, false, now);
    expect(u?.is_online).toBe(false);
    expect(u?.last_seen).toBe(now.toISOString());
  });
});
