// Unread counters that converge whatever order the answers come in: the API's answers are held
// until the test releases them, as on a slow phone, while the person reads and messages arrive.
import { describe, expect, test } from "bun:test";
import { expectLogged } from "./console.ts";
import { act, createElement, Fragment } from "react";
import ChatsTab from "../../islands/chat/ChatsTab.tsx";
import TabBar from "../../islands/chat/TabBar.tsx";
import { createApi } from "../../islands/lib/api.ts";
import { ChatController, STALE_UNREAD_RETRIES, STALE_UNREAD_RETRY_MS, TAB_UNREAD_DELAY_MS } from "../../islands/lib/controller.ts";
import { receiveMessage } from "../../islands/lib/inbox.ts";
import { createStore } from "../../islands/lib/store.ts";
import { me, message, user } from "./fixtures.ts";
import { chatDom, json, settle, text, wait } from "./harness.ts";

const { render } = chatDom();

const bob = user({ id: 2, name: "Bob", is_online: true });
const carol = user({ id: 3, name: "Carol" });

/** Routes answered at once; everything else waits in `held` until `answer` releases it. */
const immediate: Record<string, unknown> = {
  "GET /api/users": { users: [bob, carol], total: 2, online: 1 },
  "GET /api/messages/2": { messages: [], hasMore: false, oldestMessageTime: null },
};

function slowServer(hold: string[] = []) {
  const held: { key: string; release: (body: unknown) => void }[] = [];
  const sent: string[] = [];
  const fetcher = (path: string, init?: RequestInit) => {
    const key = `${init?.method ?? "GET"} ${path.split("?")[0]}`;
    sent.push(key);
    if (key in immediate && !hold.includes(key)) return Promise.resolve(json(200, immediate[key]));
    return new Promise<Response>((resolve) => held.push({ key, release: (body) => resolve(body instanceof Response ? body : json(200, body)) }));
  };
  const controller = new ChatController(createStore(me()), createApi("tok", fetcher), () => null, {
    success: () => {},
    error: () => {},
    info: () => {},
  });
  /** Releases the oldest held request for `key` (newest with `which: "newest"`) and lets it land. */
  const answer = async (key: string, body: unknown, which: "oldest" | "newest" = "oldest") => {
    const matching = held.filter((h) => h.key === key);
    const request = which === "oldest" ? matching[0] : matching.at(-1);
    if (!request) throw new Error(`${key} is not in flight; held: ${held.map((h) => h.key).join(", ")}`);
    held.splice(held.indexOf(request), 1);
    await act(async () => {
      request.release(body);
      await wait(5);
    });
  };
  const inFlight = (key: string) => held.filter((h) => h.key === key).length;
  const asked = (key: string) => sent.filter((k) => k === key).length;
  return { controller, answer, inFlight, asked };
}

const PER_USER = "GET /api/messages/unread/per-user";
const COUNT = "GET /api/messages/unread/count";
const MARK_BOB = "PUT /api/messages/mark-read/2";
const bobUnread = (n: number) => ({ items: n ? [{ sender_id: 2, sender_name: "Bob", unread_count: n }] : [] });
const counts = (c: ChatController) => ({ total: c.store.unreadTotal.value, byUser: c.store.unreadByUser.value });
/** The old client asked for the total as well; answering it (when asked) keeps that code testable. */
async function answerCounters(server: ReturnType<typeof slowServer>, n: number, which: "oldest" | "newest" = "oldest") {
  if (server.inFlight(COUNT) > 0) await server.answer(COUNT, { unread_count: n }, which);
  await server.answer(PER_USER, bobUnread(n), which);
}

async function twoMessagesFromBob(c: ChatController) {
  await c.loadUsers();
  await receiveMessage(c, message({ id: 50, sender_id: 2, receiver_id: 1, created_at: "2026-11-22T10:00:00.000Z" }));
  await receiveMessage(c, message({ id: 51, sender_id: 2, receiver_id: 1, created_at: "2026-11-22T10:01:00.000Z" }));
}

describe("unread counters on a slow connection", () => {
  test("a chat opened while the counters are in flight stays read when their late answers arrive", async () => {
    const server = slowServer();
    const c = server.controller;
    await twoMessagesFromBob(c);
    const el = await render(c, createElement(Fragment, null, createElement(ChatsTab), createElement(TabBar)));
    await act(async () => {
      c.store.ready.value = true;
      c.store.chatsLoading.value = false;
      c.selectTab("chats");
      await wait(TAB_UNREAD_DELAY_MS + 20);
    });
    expect(server.inFlight(PER_USER)).toBe(1);
    expect(text(el.querySelector('[data-tab="chats"] .badge'))).toBe("2");

    await act(async () => c.select(bob, "chat"));
    await server.answer(MARK_BOB, { updatedCount: 2, readMessages: [] });
    // Both answers were computed before the read reached the server.
    await answerCounters(server, 2);

    expect(counts(c)).toEqual({ total: 0, byUser: {} });
    expect(el.querySelector('[data-tab="chats"] .badge')).toBeNull();
    expect(el.querySelector(".row .badge")).toBeNull();
    expect(c.store.chats.value.find((u) => u.id === 2)?.unread_count).toBe(0);

    // The refused answer is asked for again, and the server's fresh word is taken.
    await act(async () => wait(STALE_UNREAD_RETRY_MS + 20));
    expect(server.inFlight(PER_USER)).toBe(1);
    await server.answer(PER_USER, bobUnread(0));
    expect(counts(c)).toEqual({ total: 0, byUser: {} });
    c.stop();
  });

  test("an answer that lands while the read is still on its way does not bring the count back", async () => {
    const server = slowServer();
    const c = server.controller;
    await twoMessagesFromBob(c);
    void c.refreshUnread();
    c.select(bob, "chat");
    await answerCounters(server, 2);
    expect(counts(c)).toEqual({ total: 0, byUser: {} });
    // Nothing is asked again until the read has landed: an answer before then could not be believed.
    await wait(STALE_UNREAD_RETRY_MS + 20);
    expect(server.inFlight(PER_USER)).toBe(0);
    await server.answer(MARK_BOB, { updatedCount: 2, readMessages: [] });
    await wait(STALE_UNREAD_RETRY_MS + 20);
    await answerCounters(server, 0);
    expect(counts(c)).toEqual({ total: 0, byUser: {} });
    c.stop();
  });

  test("a message that arrives while the counters are in flight is counted, and the server's count then wins", async () => {
    const server = slowServer();
    const c = server.controller;
    await c.loadUsers();
    c.store.unreadByUser.value = {};
    void c.refreshUnread();
    await receiveMessage(c, message({ id: 60, sender_id: 2, receiver_id: 1 }));
    // Computed before the message was stored: it knows of two older unread ones only.
    await answerCounters(server, 2);
    expect(counts(c)).toEqual({ total: 1, byUser: { 2: 1 } });
    await wait(STALE_UNREAD_RETRY_MS + 20);
    await answerCounters(server, 3);
    expect(counts(c)).toEqual({ total: 3, byUser: { 2: 3 } });
    c.stop();
  });

  test("an answer that left before one already taken is ignored", async () => {
    const server = slowServer();
    const c = server.controller;
    void c.refreshUnread();
    void c.refreshUnread();
    await answerCounters(server, 0, "newest");
    await answerCounters(server, 4);
    expect(counts(c)).toEqual({ total: 0, byUser: {} });
  });

  test("the chat list's counts are taken only for people nothing newer is known about", async () => {
    const server = slowServer();
    const c = server.controller;
    await c.loadUsers();
    const chats = c.loadChats();
    c.select(bob, "chat");
    await server.answer(MARK_BOB, { updatedCount: 2, readMessages: [] });
    await server.answer("GET /api/messages/chat-users-with-messages", {
      users: [
        { ...bob, latest_message: message({ sender_id: 2 }), unread_count: 2 },
        { ...carol, latest_message: message({ sender_id: 3 }), unread_count: 1 },
      ],
    });
    await chats;
    expect(counts(c)).toEqual({ total: 1, byUser: { 3: 1 } });
    expect(c.store.chats.value.map((u) => [u.id, u.unread_count])).toEqual([[2, 0], [3, 1]]);
    c.stop();
  });

  test("asks again at most a few times in a row while messages keep arriving", async () => {
    const server = slowServer();
    const c = server.controller;
    await c.loadUsers();
    void c.refreshUnread();
    for (let round = 0; round < STALE_UNREAD_RETRIES + 2; round++) {
      if (server.inFlight(PER_USER) === 0) break;
      await receiveMessage(c, message({ id: 70 + round, sender_id: 2, receiver_id: 1 }));
      await answerCounters(server, round);
      await wait(STALE_UNREAD_RETRY_MS + 20);
    }
    expect(server.asked(PER_USER)).toBe(1 + STALE_UNREAD_RETRIES);
    c.stop();
  });

  test("a failed answer leaves the counts as they are", async () => {
    const server = slowServer();
    const c = server.controller;
    await twoMessagesFromBob(c);
    await expectLogged("error", "Failed to load unread counters", async () => {
      const refresh = c.refreshUnread();
      await server.answer(PER_USER, json(500, { error: "Internal error" }));
      await refresh;
    });
    expect(counts(c)).toEqual({ total: 2, byUser: { 2: 2 } });
  });
});
