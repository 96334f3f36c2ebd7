// One source for a person's presence (issue 19): the header, the profile and the sidebar rows read
// the same book, whichever way the news came (an event, the people list, the chat list).
import "../support/dom.ts"; // happy-dom in place before the islands load

import { describe, expect, test } from "bun:test";
import { act } from "react";
import ChatScreen from "../../islands/chat/ChatScreen.tsx";
import { bookStamp, EMPTY_BOOK, learnEvent, learnList, live } from "../../islands/lib/presence-book.ts";
import { attachChatEvents } from "../../islands/lib/events.ts";
import type { ChatUser } from "../../islands/lib/types.ts";
import { user } from "./fixtures.ts";
import { chatDom, emitter, harness, settle, text } from "./harness.ts";

const { render } = chatDom();

describe("the presence book", () => {
  const bob = user({ id: 2, name: "Bob", is_online: false, last_seen: "2026-01-01T00:00:00.000Z" });

  test("an event sets presence, and going offline stamps last_seen now", () => {
    const now = new Date("2026-02-02T10:00:00.000Z");
    const online = learnEvent(EMPTY_BOOK, 2, true, now);
    expect(live(online, bob).is_online).toBe(true);
    const offline = learnEvent(online, 2, false, now);
    expect(live(offline, bob)).toMatchObject({ is_online: false, last_seen: now.toISOString() });
  });

  test("a list answer asked for before an event does not undo it; one asked for after does", () => {
    const asked = bookStamp(EMPTY_BOOK);
    const book = learnEvent(EMPTY_BOOK, 2, true);
    // The answer left the server before Bob came online: it still says offline.
    const stale = learnList(book, [bob], asked);
    expect(live(stale, bob).is_online).toBe(true);
    // Asked for after the event, the server's word wins (he left again and the event was missed).
    const fresh = learnList(book, [bob], bookStamp(book));
    const shownOnline: ChatUser = { ...bob, is_online: true };
    expect(live(fresh, shownOnline).is_online).toBe(false);
  });

  test("people the book has never heard of read as their own fields, unchanged", () => {
    const carol = user({ id: 3, is_online: true });
    expect(live(EMPTY_BOOK, carol)).toBe(carol);
    expect(learnList(EMPTY_BOOK, [], 0)).toBe(EMPTY_BOOK);
  });
});

describe("the chat header, the profile and the sidebar agree", () => {
  const offlineBob = user({ id: 2, name: "Bob", is_online: false });
  const onlineBob: ChatUser = { ...offlineBob, is_online: true };

  function screen(chatList: () => ChatUser[], people: () => ChatUser[] = () => [offlineBob]) {
    return harness({
      "GET /api/users": () => ({ users: people(), total: 1, online: 0 }),
      "GET /api/messages/chat-users-with-messages": () => ({ users: chatList() }),
      "GET /api/messages/unread/count": () => ({ unread_count: 0 }),
      "GET /api/messages/unread/per-user": () => ({ items: [] }),
      "GET /api/messages/2": () => ({ messages: [], hasMore: false, oldestMessageTime: null }),
      "PUT /api/messages/mark-read/2": () => ({ updatedCount: 0, readMessages: [] }),
    });
  }

  const status = (el: HTMLElement) => ({
    header: text(el.querySelector(".chat-header .status-text")),
    row: el.querySelector(".sidebar-panel .row .avatar .presence-dot")?.className ?? "",
  });

  test("when the chat list learns that the open contact is online (the event was missed), the header says Online too", async () => {
    let list = [offlineBob];
    const { controller } = screen(() => list);
    localStorage.setItem("activeTab", "chats");
    const el = await render(controller, <ChatScreen />);
    await act(async () => {
      await controller.start();
    });
    act(() => controller.select(offlineBob, "chat"));
    await settle();
    expect(status(el)).toEqual({ header: "Offline", row: "presence-dot is-offline" });

    // Back from an outage: the chat list is loaded again and says Bob is online.
    list = [onlineBob];
    await act(async () => {
      await controller.loadChats();
    });
    expect(status(el)).toEqual({ header: "Online", row: "presence-dot is-online" });
    act(() => controller.setViewMode("profile"));
    expect(text(el.querySelector(".profile-view .presence-line"))).toBe("Online");
    controller.stop();
  });

  test("when the people list is loaded again (a newcomer joined) and says the open contact is online, the header says Online too", async () => {
    let people = [offlineBob];
    const { controller } = screen(() => [], () => people);
    const el = await render(controller, <ChatScreen />);
    await act(async () => {
      await controller.start();
    });
    act(() => controller.select(offlineBob, "chat"));
    await settle();
    expect(text(el.querySelector(".chat-header .status-text"))).toBe("Offline");
    people = [onlineBob];
    await act(async () => {
      await controller.loadUsers();
    });
    expect(text(el.querySelector(".chat-header .status-text"))).toBe("Online");
    expect(text(el.querySelector(".sidebar-panel .row .row-status"))).toBe("Online");
    controller.stop();
  });

  test("an event that came after the chat list was asked for is not undone by its older answer", async () => {
    const held: { answer?: () => void } = {};
    const { controller, routes } = screen(() => [offlineBob]);
    const slow = routes.get("GET /api/messages/chat-users-with-messages");
    const el = await render(controller, <ChatScreen />);
    await act(async () => {
      await controller.start();
    });
    act(() => controller.select(offlineBob, "chat"));
    const socket = emitter();
    const detach = attachChatEvents(controller, socket);
    // The list is asked for, then Bob comes online, then the list (from before) answers.
    routes.set("GET /api/messages/chat-users-with-messages", (init, path) => new Promise((resolve) => (held.answer = () => resolve(slow?.(init, path)))));
    const loading = controller.loadChats();
    await settle();
    act(() => socket.emit("user_online", { userId: 2, name: "Bob" }));
    held.answer?.();
    await act(async () => {
      await loading;
    });
    expect(text(el.querySelector(".chat-header .status-text"))).toBe("Online");
    detach();
    controller.stop();
  });

  test("an older people-list answer that lands after an event is kept as the event has it, so the list sorts and counts the contact as online", async () => {
    const carol = user({ id: 3, name: "Carol", is_online: true, last_seen: "2026-01-02T00:00:00.000Z" });
    const held: { answer?: () => void } = {};
    const { controller, routes } = screen(() => []);
    routes.set("GET /api/users", () => new Promise((resolve) => (held.answer = () => resolve({ users: [carol, offlineBob], total: 2, online: 1 }))));
    // Bob is already listed, so his coming online is an event about someone known (no reload of its own).
    controller.store.users.value = [offlineBob];
    const socket = emitter();
    const detach = attachChatEvents(controller, socket);
    const loading = controller.loadUsers();
    await settle();
    socket.emit("user_online", { userId: 2, name: "Bob" });
    held.answer?.();
    await loading;
    const listed = controller.store.users.value;
    expect(listed.map((u) => [u.name, u.is_online])).toEqual([
      ["Carol", true],
      ["Bob", true],
    ]);
    // The count was taken before Bob came online: one more than it said.
    expect(controller.store.onlineCount.value).toBe(3);
    detach();
    controller.stop();
  });
});
