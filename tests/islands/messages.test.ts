import { describe, expect, test } from "bun:test";
import { addMessages, groupTickState, incomingOutcome, markDelivered, markRead, tickState } from "../../islands/lib/messages.ts";
import { message } from "./fixtures.ts";

describe("conversation messages", () => {
  test("ignores messages whose id is already present", () => {
    const a = message({ id: 1 });
    const list = addMessages([a], [message({ id: 1, content: "again" }), message({ id: 2 }), message({ id: 2 })]);
    expect(list.map((m) => m.id)).toEqual([1, 2]);
    expect(list[0]?.content).toBe(a.content);
  });

  test("keeps oldest first when an older page arrives", () => {
    const list = addMessages([message({ id: 5, created_at: "2026-11-22T10:00:00.000Z" })], [message({ id: 3, created_at: "2026-11-22T09:00:00.000Z" })]);
    expect(list.map((m) => m.id)).toEqual([3, 5]);
  });

  test("ticks: single when sent, double grey when delivered, double blue when read", () => {
    const sent = message({ id: 1 });
    expect(tickState(sent)).toBe("sent");
    const [delivered] = markDelivered([sent], 1, "2026-11-22T10:00:01.000Z");
    expect(tickState(delivered!)).toBe("delivered");
    const [read] = markRead([delivered!], [1], "2026-11-22T10:00:05.000Z");
    expect(tickState(read!)).toBe("read");
    expect(read?.delivered_at).toBe("2026-11-22T10:00:01.000Z");
  });

  test("a read marks the message delivered using the read time when it had none", () => {
    const [read] = markRead([message({ id: 1 })], [1], "2026-11-22T10:00:05.000Z");
    expect(read).toMatchObject({ is_delivered: true, delivered_at: "2026-11-22T10:00:05.000Z", is_read: true, read_at: "2026-11-22T10:00:05.000Z" });
  });

  test("a group shows the least advanced state of its files", () => {
    expect(groupTickState([message({ read_at: "x", is_read: true }), message({ is_delivered: true })])).toBe("delivered");
  });
});

describe("incoming messages and counters", () => {
  const me = 1;
  test("a message to me from a chat that is not open counts as unread", () => {
    const out = incomingOutcome(message({ sender_id: 2, receiver_id: me }), { meId: me, openChatId: null });
    expect(out).toEqual({ contactId: 2, unread: true, showInOpenChat: false, markRead: false });
  });

  test("a message from the open chat is shown and marked read instead", () => {
    const out = incomingOutcome(message({ sender_id: 2, receiver_id: me }), { meId: me, openChatId: 2 });
    expect(out).toEqual({ contactId: 2, unread: false, showInOpenChat: true, markRead: true });
  });

  test("a message while another chat is open still counts", () => {
    expect(incomingOutcome(message({ sender_id: 3, receiver_id: me }), { meId: me, openChatId: 2 }).unread).toBe(true);
  });

  test("a message not addressed to me never counts", () => {
    expect(incomingOutcome(message({ sender_id: 2, receiver_id: 7 }), { meId: me, openChatId: null }).unread).toBe(false);
  });
});
