// The people list watches the presence of whom it shows (issue 11): the ids go out debounced, at
// most 200, visible first, once per set, and again on a new socket; online_count moves the counter.
import "../support/dom.ts"; // happy-dom in place before the islands load

import { describe, expect, test } from "bun:test";
import { act } from "react";
import ChatScreen from "../../islands/chat/ChatScreen.tsx";
import { attachChatEvents } from "../../islands/lib/events.ts";
import { PRESENCE_WATCH_MAX, PresenceWatch, visibleFirst } from "../../islands/lib/presence.ts";
import { user } from "./fixtures.ts";
import { chatDom, emitter, harness, settle, wait } from "./harness.ts";

const { render } = chatDom();

function recorder(connected = true) {
  const sent: unknown[] = [];
  const client = { connected, send: (event: string, data: unknown) => (client.connected ? sent.push({ event, data }) > 0 : false) };
  return { sent, client };
}

describe("PresenceWatch", () => {
  test("sends the shown ids once they settle, at most 200, and not again for the same people in another order", async () => {
    const { sent, client } = recorder();
    let ids = [1, 2, 3];
    const watch = new PresenceWatch(() => client, () => ids, 20);
    watch.changed();
    ids = [3, 2, 1];
    watch.changed();
    expect(sent).toEqual([]);
    await wait(40);
    expect(sent).toEqual([{ event: "presence_watch", data: { userIds: [3, 2, 1] } }]);
    ids = [2, 1, 3];
    watch.changed();
    await wait(40);
    expect(sent).toHaveLength(1);
    ids = Array.from({ length: 250 }, (_, i) => i + 1);
    watch.changed();
    await wait(40);
    expect((sent[1] as { data: { userIds: number[] } }).data.userIds).toEqual(ids.slice(0, PRESENCE_WATCH_MAX));
    watch.stop();
  });

  test("a new socket gets the list again at once; a send that failed while offline is made on connect", async () => {
    const { sent, client } = recorder(false);
    const watch = new PresenceWatch(() => client, () => [7, 8], 10);
    watch.changed();
    await wait(30);
    expect(sent).toEqual([]);
    client.connected = true;
    watch.connected();
    watch.connected();
    expect(sent).toEqual([
      { event: "presence_watch", data: { userIds: [7, 8] } },
      { event: "presence_watch", data: { userIds: [7, 8] } },
    ]);
    watch.stop();
  });

  test("the visible rows come first", () => {
    expect(visibleFirst([1, 2, 3, 4], 2)).toEqual([3, 4, 1, 2]);
    expect(visibleFirst([1, 2], 9)).toEqual([1, 2]);
  });
});

describe("the All Users list", () => {
  test("sends presence_watch with the ids it shows", async () => {
    const people = [user({ id: 2, name: "Bob", is_online: true }), user({ id: 3, name: "Cy", is_online: false })];
    const { controller, sent } = harness({
      "GET /api/users": () => ({ users: people, total: 2, online: 1 }),
      "GET /api/messages/chat-users-with-messages": () => ({ users: [] }),
      "GET /api/messages/unread/count": () => ({ unread_count: 0 }),
      "GET /api/messages/unread/per-user": () => ({ items: [] }),
    });
    controller.store.connection.value = "connected";
    await render(controller, <ChatScreen />);
    await act(async () => {
      await controller.start();
    });
    await act(async () => wait(700));
    await settle();
    const watches = sent.filter((s) => s.event === "presence_watch");
    expect(watches.at(-1)?.data).toEqual({ userIds: [2, 3] });
    controller.stop();
  });

  test("online_count moves the online counter to the server's figure", () => {
    const { controller } = harness();
    const listed = user({ id: 2, is_online: true });
    controller.store.users.value = [listed];
    controller.store.everyoneCount.value = { total: 10, online: 1, reported: new Map([[2, true]]) };
    const socket = emitter();
    const detach = attachChatEvents(controller, socket);
    expect(controller.store.onlineCount.value).toBe(2);
    socket.emit("online_count", { online: 40 });
    expect(controller.store.onlineCount.value).toBe(40);
    detach();
  });
});
