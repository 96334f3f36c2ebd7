// The chat controller against a scripted API: restoring the saved selection, unread counters on
// incoming messages, read marking, unknown senders, and the send guard.
import { registerDom, unregisterDom } from "../support/dom.ts";

import { afterAll, beforeEach, describe, expect, spyOn, test } from "bun:test";
import { expectLogged } from "./console.ts";
import { receiveMessage } from "../../islands/lib/inbox.ts";
import { message, user } from "./fixtures.ts";
import { harness, wait } from "./harness.ts";
import { until } from "./waits.ts";

registerDom();
afterAll(() => unregisterDom());
beforeEach(() => localStorage.clear());

const bob = user({ id: 2, name: "Bob", is_online: true });
const carol = user({ id: 3, name: "Carol" });
const lists = {
  "GET /api/users": () => ({ users: [carol, bob], total: 2, online: 1 }),
  "GET /api/messages/chat-users-with-messages": () => ({ users: [{ ...bob, latest_message: message({ sender_id: 2 }), unread_count: 0 }] }),
  "GET /api/messages/2": () => ({ messages: [], hasMore: false, oldestMessageTime: null }),
  "GET /api/messages/3": () => ({ messages: [], hasMore: false, oldestMessageTime: null }),
  "PUT /api/messages/mark-read/2": () => ({ updatedCount: 0, readMessages: [] }),
  "PUT /api/messages/mark-read/3": () => ({ updatedCount: 0, readMessages: [] }),
  "GET /api/messages/unread/count": () => ({ unread_count: 4 }),
  "GET /api/messages/unread/per-user": () => ({ items: [{ sender_id: 3, sender_name: "Carol", unread_count: 4 }] }),
};

describe("restoring the last selection", () => {
  test("restores tab, user and view mode from the users list", async () => {
    localStorage.setItem("activeTab", "users");
    localStorage.setItem("selectedUserId", "3");
    localStorage.setItem("selectedViewMode", "profile");
    const { controller } = harness(lists);
    await controller.start();
    expect(controller.store.selected.value?.id).toBe(3);
    expect(controller.store.viewMode.value).toBe("profile");
    controller.stop();
  });

  test("looks in the chat users list when the tab is chats, and clears a user not found there", async () => {
    localStorage.setItem("activeTab", "chats");
    localStorage.setItem("selectedUserId", "3"); // Carol is a user but has no conversation
    localStorage.setItem("selectedViewMode", "chat");
    const { controller } = harness(lists);
    await controller.start();
    expect(controller.store.tab.value).toBe("chats");
    expect(controller.store.selected.value).toBeNull();
    expect(localStorage.getItem("selectedUserId")).toBeNull();
    expect(localStorage.getItem("selectedViewMode")).toBeNull();
    controller.stop();
  });

  test("finds a chat user when the tab is chats, and opens the chat", async () => {
    localStorage.setItem("activeTab", "chats");
    localStorage.setItem("selectedUserId", "2");
    const { controller, calls } = harness(lists);
    await controller.start();
    expect(controller.store.selected.value?.id).toBe(2);
    expect(controller.store.viewMode.value).toBe("chat");
    expect(calls).toContain("PUT /api/messages/mark-read/2");
    controller.stop();
  });

  test("stores the tab and settings section when they change", () => {
    const { controller } = harness(lists);
    controller.selectTab("settings");
    controller.selectSettingsSection("profile");
    expect(localStorage.getItem("activeTab")).toBe("settings");
    expect(localStorage.getItem("selectedSettingsSection")).toBe("profile");
    controller.stop();
  });
});

describe("catching up once the first connection is up", () => {
  // Bob's chat is open (restored); a message of his came while the page connected: stored after
  // the page's lists were read, and before the server held its connection, so never sent live.
  const early = message({ id: 500, sender_id: 2, content: "the first one" });
  const late = message({ id: 501, sender_id: 2, content: "sent while the page connected" });

  function connecting(latest: typeof early) {
    localStorage.setItem("activeTab", "chats");
    localStorage.setItem("selectedUserId", "2");
    let chats = 0;
    let pages = 0;
    const h = harness({
      ...lists,
      "GET /api/messages/chat-users-with-messages": () => {
        chats++;
        return { users: [{ ...bob, latest_message: chats === 1 ? early : latest, unread_count: chats === 1 ? 0 : 1 }] };
      },
      "GET /api/messages/2": () => {
        pages++;
        return { messages: pages === 1 ? [early] : [early, latest].filter((m, i, all) => all.indexOf(m) === i), hasMore: false, oldestMessageTime: null };
      },
    });
    return { ...h, counts: () => ({ chats, pages }) };
  }

  test("reads the chat list again after the first one, and the open chat when the list has a newer last message", async () => {
    const { controller, counts, calls } = connecting(late);
    const started = controller.start();
    // Connected before the first lists are in: the catch-up waits for them, so a first answer
    // that left earlier cannot land after it.
    const caughtUp = controller.catchUp();
    await started;
    await caughtUp;
    await until(() => controller.store.messages.value.some((m) => m.id === late.id), "the late message in the open chat");
    expect(counts().chats).toBe(2);
    expect(controller.store.chats.value[0]?.latest_message?.id).toBe(late.id);
    expect(controller.store.messages.value.map((m) => m.id)).toEqual([early.id, late.id]);
    // Shown in the open chat, so read, as a message that comes live there is.
    const reads = calls.map((c, i) => [c, i] as const).filter(([c]) => c === "PUT /api/messages/mark-read/2");
    const secondPage = calls.lastIndexOf("GET /api/messages/2?limit=50");
    expect(calls.filter((c) => c === "GET /api/messages/2?limit=50")).toHaveLength(2);
    expect(reads.some(([, i]) => i > secondPage)).toBe(true);
    expect(controller.store.unreadByUser.value[2]).toBeUndefined();
    controller.stop();
  });

  test("leaves the open chat alone when the list shows nothing newer than it does", async () => {
    const { controller, counts, calls } = connecting(early);
    await controller.start();
    await until(() => controller.store.messages.value.length === 1, "the open chat's first page");
    await controller.catchUp();
    expect(counts()).toEqual({ chats: 2, pages: 1 });
    expect(calls.filter((c) => c.startsWith("GET /api/messages/2"))).toHaveLength(1);
    controller.stop();
  });
});

describe("lists", () => {
  test("falls back to the legacy chat list when the new one fails", async () => {
    const { controller, calls } = harness({
      ...lists,
      "GET /api/messages/chat-users-with-messages": () => new Response("{}", { status: 500 }),
      "GET /api/messages/chat-users": () => ({ users: [carol] }),
    });
    await expectLogged("error", "Chat list failed, trying the legacy list", () => controller.loadChats());
    expect(calls).toContain("GET /api/messages/chat-users");
    expect(controller.store.chats.value.map((u) => u.id)).toEqual([3]);
  });

  test("counts yourself in the online counter", async () => {
    const { controller } = harness(lists);
    await controller.loadUsers();
    expect(controller.store.onlineCount.value).toBe(2);
  });

  test("fetches the unread counters 500 ms after start and 100 ms after a tab switch", async () => {
    const { controller, calls } = harness(lists);
    const counted = () => calls.filter((c) => c === "GET /api/messages/unread/per-user").length;
    await controller.start();
    expect(counted()).toBe(0);
    await wait(560);
    expect(counted()).toBe(1);
    expect(controller.store.unreadTotal.value).toBe(4);
    expect(controller.store.unreadByUser.value).toEqual({ 3: 4 });
    controller.selectTab("chats");
    await wait(40);
    expect(counted()).toBe(1);
    await wait(100);
    expect(counted()).toBe(2);
    controller.stop();
  });
});

describe("incoming messages", () => {
  test("count toward the total and the sender when their chat is not open", async () => {
    const { controller } = harness(lists);
    await controller.loadUsers();
    await receiveMessage(controller, message({ id: 50, sender_id: 2, receiver_id: 1, created_at: "2026-11-22T10:00:00.000Z" }));
    await receiveMessage(controller, message({ id: 51, sender_id: 2, receiver_id: 1, created_at: "2026-11-22T10:01:00.000Z" }));
    await receiveMessage(controller, message({ id: 52, sender_id: 3, receiver_id: 1, sender_name: "Carol", created_at: "2026-11-22T10:02:00.000Z" }));
    expect(controller.store.unreadTotal.value).toBe(3);
    expect(controller.store.unreadByUser.value).toEqual({ 2: 2, 3: 1 });
    expect(controller.store.chats.value.map((c) => [c.id, c.unread_count])).toEqual([[3, 1], [2, 2]]);
  });

  test("are shown and marked read over the socket when the sender's chat is open", async () => {
    const { controller, sent } = harness(lists);
    await controller.loadUsers();
    controller.select(bob, "chat");
    await wait(5);
    await receiveMessage(controller, message({ id: 60, sender_id: 2, receiver_id: 1 }));
    expect(controller.store.unreadTotal.value).toBe(0);
    expect(controller.store.messages.value.map((m) => m.id)).toEqual([60]);
    expect(sent.find((s) => s.event === "messages_read")).toMatchObject({ ack: true, data: { senderId: 2, messageIds: [60] } });
  });

  test("count when the sender's profile (not the chat) is open", async () => {
    const { controller } = harness(lists);
    await controller.loadUsers();
    controller.select(bob, "profile");
    await receiveMessage(controller, message({ id: 61, sender_id: 2, receiver_id: 1 }));
    expect(controller.store.unreadTotal.value).toBe(1);
  });

  test("from an unknown sender fetch that user and add them to the lists", async () => {
    const dave = user({ id: 9, name: "Dave" });
    const { controller, calls } = harness({ ...lists, "GET /api/users/9": () => ({ user: dave }) });
    await receiveMessage(controller, message({ id: 70, sender_id: 9, sender_name: "Dave" }));
    expect(calls).toContain("GET /api/users/9");
    expect(controller.store.users.value.map((u) => u.id)).toContain(9);
    expect(controller.store.chats.value[0]?.name).toBe("Dave");
  });

  test("from an unknown sender that cannot be fetched build an entry from the sender name", async () => {
    const { controller } = harness(lists);
    await expectLogged("error", "Failed to fetch the sender", () => receiveMessage(controller, message({ id: 71, sender_id: 8, sender_name: "Eve" })));
    expect(controller.store.chats.value[0]).toMatchObject({ id: 8, name: "Eve", unread_count: 1 });
  });

  test("a message id already present is ignored", async () => {
    const { controller } = harness(lists);
    await controller.loadUsers();
    controller.select(bob, "chat");
    await wait(5);
    await receiveMessage(controller, message({ id: 80, sender_id: 2 }));
    await receiveMessage(controller, message({ id: 80, sender_id: 2 }));
    expect(controller.store.messages.value).toHaveLength(1);
  });
});

describe("sending", () => {
  test("needs a connected socket, a contact and text; otherwise only logs", async () => {
    const { controller, sent, socket } = harness(lists);
    const errors = spyOn(console, "error").mockImplementation(() => {});
    expect(controller.sendText("hi")).toBe(false); // no contact
    controller.select(bob, "chat");
    expect(controller.sendText("   ")).toBe(false);
    socket.connected = false;
    expect(controller.sendText("hi")).toBe(false);
    expect(errors).toHaveBeenCalledTimes(3);
    errors.mockRestore();
    socket.connected = true;
    expect(controller.sendText("  hi  ")).toBe(true);
    expect(sent.at(-1)).toMatchObject({ event: "send_message", ack: true, data: { receiverId: 2, content: "hi", messageType: "text" } });
    expect(typeof (sent.at(-1)?.data as { clientMessageId?: unknown }).clientMessageId).toBe("string");
  });
});
