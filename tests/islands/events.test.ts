// Realtime events on the chat store, presence signals from the page, and paging older messages.
import { registerDom, unregisterDom } from "../support/dom.ts";

import { afterAll, describe, expect, test } from "bun:test";
import { attachChatEvents } from "../../islands/lib/events.ts";
import { attachPresence } from "../../islands/lib/presence.ts";
import { message, user } from "./fixtures.ts";
import { emitter, harness, wait } from "./harness.ts";

registerDom();
afterAll(() => unregisterDom());


const counters = {
  "GET /api/messages/unread/count": () => ({ unread_count: 0 }),
  "GET /api/messages/unread/per-user": () => ({ items: [] }),
};

describe("realtime events", () => {
  test("presence updates the lists with a toast naming the user, and my own is ignored", async () => {
    const { controller, toasts } = harness(counters);
    const bob = user({ id: 2, name: "Bob", is_online: false });
    controller.store.users.value = [bob];
    controller.store.chats.value = [bob];
    const socket = emitter();
    const detach = attachChatEvents(controller, socket, { offlineToastGraceMs: 20 });
    socket.emit("user_online", { userId: 2, name: "Bob" });
    expect(controller.store.users.value[0]?.is_online).toBe(true);
    socket.emit("user_offline", { userId: 2, name: "Bob" });
    const after = controller.store.users.value[0];
    expect(after?.is_online).toBe(false);
    expect(Date.now() - new Date(after?.last_seen ?? 0).getTime()).toBeLessThan(5000);
    socket.emit("user_offline", { userId: 1, name: "Me" });
    await wait(40);
    expect(toasts).toEqual(["info:Bob is now online", "info:Bob went offline"]);
    detach();
  });

  test("someone who goes offline and comes back within the grace (a reload) makes no toast at all", async () => {
    const { controller, toasts } = harness(counters);
    const bob = user({ id: 2, name: "Bob", is_online: true });
    controller.store.users.value = [bob];
    controller.store.chats.value = [bob];
    const socket = emitter();
    const detach = attachChatEvents(controller, socket, { offlineToastGraceMs: 50 });
    socket.emit("user_offline", { userId: 2, name: "Bob" });
    expect(controller.store.users.value[0]?.is_online).toBe(false);
    await wait(20);
    socket.emit("user_online", { userId: 2, name: "Bob" });
    expect(controller.store.users.value[0]?.is_online).toBe(true);
    await wait(80);
    expect(toasts).toEqual([]);
    // Gone for longer than the grace: one toast, after it.
    socket.emit("user_offline", { userId: 2, name: "Bob" });
    await wait(20);
    expect(toasts).toEqual([]);
    await wait(60);
    expect(toasts).toEqual(["info:Bob went offline"]);
    detach();
  });

  test("detaching drops the offline toasts still waiting out the grace", async () => {
    const { controller, toasts } = harness(counters);
    const bob = user({ id: 2, name: "Bob", is_online: true });
    controller.store.users.value = [bob];
    controller.store.chats.value = [bob];
    const socket = emitter();
    const detach = attachChatEvents(controller, socket, { offlineToastGraceMs: 20 });
    socket.emit("user_offline", { userId: 2, name: "Bob" });
    detach();
    await wait(40);
    expect(toasts).toEqual([]);
  });

  test("online and offline toasts are shown only for people in my chat list, once per change", () => {
    const { controller, toasts } = harness(counters);
    const bob = user({ id: 2, name: "Bob", is_online: false });
    const stranger = user({ id: 3, name: "Chosen Name", is_online: false });
    controller.store.users.value = [bob, stranger];
    controller.store.chats.value = [bob];
    const socket = emitter();
    attachChatEvents(controller, socket);
    for (let i = 0; i < 20; i++) {
      socket.emit("user_online", { userId: 3, name: "Chosen Name" });
      socket.emit("user_offline", { userId: 3, name: "Chosen Name" });
    }
    expect(controller.store.users.value.find((u) => u.id === 3)?.is_online).toBe(false);
    socket.emit("user_offline", { userId: 2, name: "Bob" });
    socket.emit("user_online", { userId: 2, name: "Bob" });
    socket.emit("user_online", { userId: 2, name: "Bob" });
    expect(toasts).toEqual(["info:Bob is now online"]);
  });

  test("newcomers refresh the people list without a toast, at most once per interval however many arrive", async () => {
    const { controller, toasts, calls } = harness({ ...counters, "GET /api/users": () => ({ users: [], total: 0, online: 0 }) });
    const socket = emitter();
    const detach = attachChatEvents(controller, socket, { peopleRefreshMs: 40 });
    for (let i = 0; i < 50; i++) socket.emit("new_user_registered", { name: `Guest_${i}` });
    for (let i = 0; i < 50; i++) socket.emit("user_online", { userId: 100 + i, name: `Guest_${i}` });
    await wait(10);
    expect(calls.filter((c) => c.startsWith("GET /api/users")).length).toBe(1);
    await wait(80);
    // One more for what arrived during the interval, then nothing.
    expect(calls.filter((c) => c.startsWith("GET /api/users")).length).toBe(2);
    expect(toasts).toEqual([]);
    detach();
  });

  test("delivery and read receipts move the ticks; a read by me refetches the counters", async () => {
    const { controller, calls } = harness(counters);
    controller.store.messages.value = [message({ id: 10, sender_id: 1, receiver_id: 2 }), message({ id: 11, sender_id: 1, receiver_id: 2 })];
    const socket = emitter();
    attachChatEvents(controller, socket);
    socket.emit("message_delivered", { messageId: 10, deliveredAt: "2026-11-22T10:00:01.000Z", receiverId: 2 });
    expect(controller.store.messages.value.map((m) => m.is_delivered)).toEqual([true, false]);
    socket.emit("messages_read_batch", { messageIds: [10, 11], receiverId: 2, readAt: "2026-11-22T10:00:05.000Z" });
    expect(controller.store.messages.value.map((m) => [m.is_read, m.delivered_at])).toEqual([
      [true, "2026-11-22T10:00:01.000Z"],
      [true, "2026-11-22T10:00:05.000Z"],
    ]);
    expect(calls).not.toContain("GET /api/messages/unread/per-user");
    socket.emit("messages_read_batch", { messageIds: [], receiverId: 1, readAt: "2026-11-22T10:00:06.000Z" });
    await wait(5);
    expect(calls).toContain("GET /api/messages/unread/per-user");
  });

  test("typing events set and clear the contact's typing flag", () => {
    const { controller } = harness(counters);
    const socket = emitter();
    attachChatEvents(controller, socket);
    socket.emit("user_typing", { userId: 2, name: "Bob", isTyping: true });
    expect(controller.store.typing.value[2]).toBe(true);
    socket.emit("user_typing", { userId: 2, name: "Bob", isTyping: false });
    expect(controller.store.typing.value[2]).toBe(false);
  });
});

describe("older messages", () => {
  test("load with the oldest time as cursor, once per cursor, until no more pages exist", async () => {
    let pages = 0;
    const { controller, calls } = harness({
      "GET /api/messages/2": (_init, path) => {
        pages += 1;
        if (!path.includes("before=")) return { messages: [message({ id: 100, created_at: "2026-11-22T10:00:00.000Z" })], hasMore: true, oldestMessageTime: "2026-11-22T10:00:00.000Z" };
        return { messages: [message({ id: 99, created_at: "2026-11-22T09:00:00.000Z" })], hasMore: false, oldestMessageTime: "2026-11-22T09:00:00.000Z" };
      },
      "PUT /api/messages/mark-read/2": () => ({ updatedCount: 0, readMessages: [] }),
    });
    controller.select(user({ id: 2 }), "chat");
    await wait(5);
    await Promise.all([controller.loadOlder(), controller.loadOlder()]);
    await controller.loadOlder();
    expect(pages).toBe(2);
    expect(calls.filter((c) => c.startsWith("GET /api/messages/2"))).toEqual([
      "GET /api/messages/2?limit=50",
      `GET /api/messages/2?limit=50&before=${encodeURIComponent("2026-11-22T10:00:00.000Z")}`,
    ]);
    expect(controller.store.messages.value.map((m) => m.id)).toEqual([99, 100]);
  });
});

describe("presence from the page", () => {
  const setVisibility = (state: "visible" | "hidden") => {
    Object.defineProperty(document, "visibilityState", { value: state, configurable: true });
    document.dispatchEvent(new Event("visibilitychange"));
  };

  test("hidden long enough sends user_logout; visible again sends user_back_online or reconnects", async () => {
    const sent: string[] = [];
    let reconnects = 0;
    const client = { connected: true, send: (event: string) => (sent.push(event), true), reconnectNow: () => void reconnects++ };
    const detach = attachPresence(client, 20);
    setVisibility("hidden");
    await wait(40);
    expect(sent).toEqual(["user_logout"]);
    setVisibility("visible");
    expect(sent).toEqual(["user_logout", "user_back_online"]);
    client.connected = false;
    setVisibility("hidden");
    setVisibility("visible");
    await wait(40);
    expect(reconnects).toBe(1);
    expect(sent).toEqual(["user_logout", "user_back_online"]);
    detach();
    expect(sent.at(-1)).toBe("user_logout");
  });

  test("page unload signals logout", () => {
    const sent: string[] = [];
    const detach = attachPresence({ connected: true, send: (event: string) => (sent.push(event), true), reconnectNow: () => {} });
    window.dispatchEvent(new Event("pagehide"));
    expect(sent).toEqual(["user_logout"]);
    detach();
  });
});
