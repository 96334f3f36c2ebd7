import { describe, expect, test } from "bun:test";
import { makeTestApp, registerUser } from "../support/app.ts";
import { listeningApp } from "../support/listening.ts";
import { connect, settled } from "../support/ws.ts";

const t = listeningApp({ SOCKET_RATE_LIMIT: "20:40" });

const pair = async () => ({ a: await registerUser(t, { name: "Sender Sam" }), b: await registerUser(t, { name: "Receiver Rae" }) });

describe("send_message", () => {
  test("stores, acks, tells every sender tab and the receiver, and marks it delivered", async () => {
    const { a, b } = await pair();
    const a1 = await connect(t.wsUrl, a.token);
    const a2 = await connect(t.wsUrl, a.token);
    const b1 = await connect(t.wsUrl, b.token);
    const ack = await a1.ask("send_message", { receiverId: b.user.id, content: "  hello Rae  ", messageType: "text" });
    const message = ack.data.message;
    expect(message).toMatchObject({ sender_id: a.user.id, receiver_id: b.user.id, sender_name: "Sender Sam", content: "hello Rae", message_type: "text", is_read: false });
    expect((await a1.next("message_sent")).data.message.id).toBe(message.id);
    expect((await a2.next("message_sent")).data.message.id).toBe(message.id);
    const incoming = await b1.next("new_message");
    expect(incoming.data.message.id).toBe(message.id);
    const delivered = await a1.next("message_delivered");
    // Exactly these fields, the time the ack's copy already carries (the frame is written by hand, notify.ts).
    expect(delivered.data).toEqual({ messageId: message.id, deliveredAt: message.delivered_at, receiverId: b.user.id });
    expect(delivered.data.deliveredAt).toMatch(/Z$/);
    const stored = await t.call("GET", `/api/messages/${a.user.id}`, { token: b.token });
    expect(stored.status).toBe(200);
    expect(stored.body.messages.at(-1).is_delivered).toBe(true);
    [a1, a2, b1].forEach((s) => s.close());
  });

  test("holds a message for an absent receiver and delivers it when they connect", async () => {
    const { a, b } = await pair();
    const a1 = await connect(t.wsUrl, a.token);
    const ack = await a1.ask("send_message", { receiverId: b.user.id, content: "are you there?" });
    expect(ack.data.message.is_delivered).toBe(false);
    expect(await a1.silent("message_delivered")).toBe(true);
    const b1 = await connect(t.wsUrl, b.token);
    const delivered = await a1.next("message_delivered");
    expect(delivered.data.messageId).toBe(ack.data.message.id);
    a1.close();
    b1.close();
  });

  test("a repeated clientMessageId answers the stored message and neither stores nor delivers it again", async () => {
    const { a, b } = await pair();
    const a1 = await connect(t.wsUrl, a.token);
    const b1 = await connect(t.wsUrl, b.token);
    const first = await a1.ask("send_message", { receiverId: b.user.id, content: "once", clientMessageId: "c-123" });
    await b1.next("new_message");
    const again = await a1.ask("send_message", { receiverId: b.user.id, content: "once", clientMessageId: "c-123" });
    expect(again.data.message.id).toBe(first.data.message.id);
    expect(again.data.message.client_message_id).toBe("c-123");
    expect(again.data.message.clientMessageId).toBe("c-123");
    expect(await b1.silent("new_message", a1)).toBe(true);
    const count = (await t.sql<{ n: number }>("SELECT CAST(count(*) AS INTEGER) AS n FROM messages WHERE client_message_id = 'c-123'"))[0]!;
    expect(count.n).toBe(1);
    a1.close();
    b1.close();
  });

  test("a retry of a stored message gets it back even once the receiver has blocked the sender; a new one is refused", async () => {
    const { a, b } = await pair();
    const a1 = await connect(t.wsUrl, a.token);
    const first = await a1.ask("send_message", { receiverId: b.user.id, content: "before", clientMessageId: "c-blocked" });
    const blocked = await t.call("POST", "/api/blocks", { token: b.token, json: { userId: a.user.id } });
    expect(blocked.status).toBeLessThan(300);
    const retry = await a1.ask("send_message", { receiverId: b.user.id, content: "before", clientMessageId: "c-blocked" });
    expect(retry.error).toBeUndefined();
    expect(retry.data.message.id).toBe(first.data.message.id);
    const fresh = await a1.ask("send_message", { receiverId: b.user.id, content: "after", clientMessageId: "c-new" });
    expect(fresh.error).toBeDefined();
    const count = (await t.sql<{ n: number }>("SELECT CAST(count(*) AS INTEGER) AS n FROM messages WHERE sender_id = ?", a.user.id))[0]!;
    expect(count.n).toBe(1);
    a1.close();
  });

  test("sends as the signed-in user whatever senderId the frame claims", async () => {
    const { a, b } = await pair();
    const a1 = await connect(t.wsUrl, a.token);
    const ack = await a1.ask("send_message", { receiverId: b.user.id, content: "me", senderId: b.user.id, sender_id: b.user.id });
    expect(ack.data.message.sender_id).toBe(a.user.id);
    a1.close();
  });

  test.each([
    ["empty text", { content: "" }, "validation"],
    ["only spaces", { content: "    " }, "validation"],
    ["4001 characters", { content: "x".repeat(4001) }, "validation"],
    ["a file type", { content: "hi", messageType: "file" }, "validation"],
    ["a missing receiver", { receiverId: undefined }, "validation"],
    ["a receiver id as text", { receiverId: "abc" }, "validation"],
    ["an unknown receiver", { receiverId: 987654 }, "not_found"],
    ["a long clientMessageId", { clientMessageId: "c".repeat(65) }, "validation"],
  ])("refuses %s with an error and stores nothing", async (_label, change, code) => {
    const { a, b } = await pair();
    const a1 = await connect(t.wsUrl, a.token);
    const ack = await a1.ask("send_message", { receiverId: b.user.id, content: "ok", ...change });
    expect(ack.error?.code).toBe(code);
    expect(ack.error?.message).toBeString();
    const n = (await t.sql<{ n: number }>("SELECT CAST(count(*) AS INTEGER) AS n FROM messages WHERE sender_id = ?", a.user.id))[0]!;
    expect(n.n).toBe(0);
    a1.close();
  });

  test("accepts exactly 4000 characters and emoji messages", async () => {
    const { a, b } = await pair();
    const a1 = await connect(t.wsUrl, a.token);
    expect((await a1.ask("send_message", { receiverId: b.user.id, content: "y".repeat(4000) })).data.message.content).toHaveLength(4000);
    expect((await a1.ask("send_message", { receiverId: String(b.user.id), content: "🎉", messageType: "emoji" })).data.message.message_type).toBe("emoji");
    a1.close();
  });

  test("refuses a message to yourself", async () => {
    const { a } = await pair();
    const a1 = await connect(t.wsUrl, a.token);
    expect((await a1.ask("send_message", { receiverId: a.user.id, content: "me" })).error?.code).toBe("validation");
    a1.close();
  });
});

describe("typing", () => {
  test("tells the receiver who is typing and when they stop", async () => {
    const { a, b } = await pair();
    const a1 = await connect(t.wsUrl, a.token);
    const b1 = await connect(t.wsUrl, b.token);
    a1.send("typing_start", { receiverId: b.user.id });
    expect((await b1.next("user_typing")).data).toEqual({ userId: a.user.id, name: "Sender Sam", isTyping: true });
    a1.send("typing_stop", { receiverId: b.user.id });
    expect((await b1.next("user_typing")).data.isTyping).toBe(false);
    a1.close();
    b1.close();
  });
});

describe("read receipts", () => {
  test("messages_read marks the listed messages, acks the count and tells the sender", async () => {
    const { a, b } = await pair();
    const a1 = await connect(t.wsUrl, a.token);
    const b1 = await connect(t.wsUrl, b.token);
    const m1 = (await a1.ask("send_message", { receiverId: b.user.id, content: "one" })).data.message;
    const m2 = (await a1.ask("send_message", { receiverId: b.user.id, content: "two" })).data.message;
    const ack = await b1.ask("messages_read", { senderId: a.user.id, receiverId: b.user.id, readAt: new Date().toISOString(), messageIds: [m1.id, m2.id, 999999] });
    expect(ack.data).toEqual({ updatedCount: 2 });
    const batch = await a1.next("messages_read_batch");
    expect(batch.data.messageIds.sort()).toEqual([m1.id, m2.id].sort());
    expect(batch.data.receiverId).toBe(b.user.id);
    expect(batch.data.readAt).toMatch(/Z$/);
    const again = await b1.ask("messages_read", { senderId: a.user.id, receiverId: b.user.id, messageIds: [m1.id] });
    expect(again.data).toEqual({ updatedCount: 0 });
    a1.close();
    b1.close();
  });

  test("cannot mark someone else's messages: a spoofed receiverId is refused, the sender's own ids change nothing", async () => {
    const { a, b } = await pair();
    const a1 = await connect(t.wsUrl, a.token);
    const m = (await a1.ask("send_message", { receiverId: b.user.id, content: "private" })).data.message;
    const spoof = await a1.ask("messages_read", { senderId: a.user.id, receiverId: b.user.id, messageIds: [m.id] });
    expect(spoof.error?.code).toBeOneOf(["forbidden", "validation"]);
    const c = await registerUser(t);
    const c1 = await connect(t.wsUrl, c.token);
    const stranger = await c1.ask("messages_read", { senderId: a.user.id, messageIds: [m.id] });
    expect(stranger.data).toEqual({ updatedCount: 0 });
    const row = (await t.sql<{ read_at: number | null }>("SELECT read_at FROM messages WHERE id = ?", m.id))[0]!;
    expect(row.read_at).toBeNull();
    a1.close();
    c1.close();
  });
});

describe("rate limits", () => {
  test("past the burst, events get rate_limited and nothing is stored or relayed", async () => {
    // Refills at 1 a second: how many of the 12 pass depends on how fast the server reads them,
    // so the test counts what happened to each one rather than guessing the number.
    const local = makeTestApp({ SOCKET_RATE_LIMIT: "1:5" });
    try {
      const { wsUrl: url } = local.listen();
      const a = await registerUser(local);
      const b = await registerUser(local);
      const a1 = await connect(url, a.token);
      const b1 = await connect(url, b.token);
      const sent = 12;
      for (let i = 0; i < sent; i++) a1.send("send_message", { receiverId: b.user.id, content: `flood ${i}` });
      // Every frame is answered: message_sent when stored, error when refused.
      const answers = [];
      for (let i = 0; i < sent; i++) answers.push(await a1.nextWhere((f) => f.event === "message_sent" || f.event === "error", "message_sent or error"));
      const refused = answers.filter((f) => f.event === "error");
      expect(refused.length).toBeGreaterThan(0);
      for (const f of refused) expect(f.data).toMatchObject({ code: "rate_limited", event: "send_message" });
      const passed = sent - refused.length;
      // The burst of 5, less the ping with which connect found a1 held.
      expect(passed).toBeGreaterThanOrEqual(4);
      const n = (await local.sql<{ n: number }>("SELECT CAST(count(*) AS INTEGER) AS n FROM messages"))[0]!;
      expect(n.n).toBe(passed);
      await settled(b1);
      expect(b1.frames.filter((f) => f.event === "new_message")).toHaveLength(passed);
      a1.close();
      b1.close();
    } finally {
      await local.close();
    }
  });
});
