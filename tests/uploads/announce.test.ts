import { describe, expect, test } from "bun:test";
import { registerUser } from "../support/app.ts";
import { listeningApp } from "../support/listening.ts";
import { connect } from "../support/ws.ts";
import { fileOf, uploadForm } from "./fixtures.ts";

const t = listeningApp({ UPLOAD_RATE_LIMIT: "12" });

const files = (n: number) => Array.from({ length: n }, (_, i) => fileOf(`file ${i}`, `f${i}.txt`));

describe("uploads reach the other person like text messages", () => {
  test("sends message_sent to the sender, new_message to the receiver and marks it delivered", async () => {
    const [sender, receiver] = [await registerUser(t), await registerUser(t)];
    const senderSocket = await connect(t.wsUrl, sender.token);
    const receiverSocket = await connect(t.wsUrl, receiver.token);
    try {
      const res = await t.call("POST", "/api/messages/upload", { token: sender.token, body: uploadForm(receiver.user.id, "file", files(1)) });
      expect(res.status).toBe(201);
      const { id } = res.body.message;
      expect(res.body.message.is_delivered).toBe(true);
      expect((await senderSocket.next("message_sent")).data.message).toMatchObject({ id, message_type: "file" });
      expect((await receiverSocket.next("new_message")).data.message).toMatchObject({ id, file_name: "f0.txt" });
      const delivered = await senderSocket.next("message_delivered");
      expect(delivered.data).toMatchObject({ messageId: id, receiverId: receiver.user.id });
    } finally {
      senderSocket.close();
      receiverSocket.close();
    }
  });

  test("announces each file of a group, in order, with the shared group_id", async () => {
    const [sender, receiver] = [await registerUser(t), await registerUser(t)];
    const receiverSocket = await connect(t.wsUrl, receiver.token);
    try {
      const res = await t.call("POST", "/api/messages/upload-multiple", { token: sender.token, body: uploadForm(receiver.user.id, "files", files(3)) });
      const ids = res.body.messages.map((m: { id: number }) => m.id);
      const received = [];
      for (let i = 0; i < 3; i++) received.push((await receiverSocket.next("new_message")).data.message);
      expect(received.map((m) => m.id)).toEqual(ids);
      expect(new Set(received.map((m) => m.group_id)).size).toBe(1);
    } finally {
      receiverSocket.close();
    }
  });

  test("leaves a message undelivered while the receiver is away", async () => {
    const [sender, receiver] = [await registerUser(t), await registerUser(t)];
    const res = await t.call("POST", "/api/messages/upload", { token: sender.token, body: uploadForm(receiver.user.id, "file", files(1)) });
    expect(res.body.message).toMatchObject({ is_delivered: false, delivered_at: null });
  });
});

describe("the per-user upload budget", () => {
  test("counts files, not requests, and answers 429 with Retry-After past it", async () => {
    const [sender, receiver, other] = [await registerUser(t), await registerUser(t), await registerUser(t)];
    const send = (n: number, token = sender.token, to = receiver.user.id) =>
      t.call("POST", "/api/messages/upload-multiple", { token, body: uploadForm(to, "files", files(n)) });
    expect((await send(10)).status).toBe(201);
    const over = await send(3);
    expect(over.status).toBe(429);
    expect(over.body.code).toBe("rate_limited");
    expect(Number(over.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await send(2)).status).toBe(201);
    const full = await t.call("POST", "/api/messages/upload", { token: sender.token, body: uploadForm(receiver.user.id, "file", files(1)) });
    expect(full.status).toBe(429);
    expect(Number(full.headers.get("retry-after"))).toBeLessThanOrEqual(60);
    // Someone else's budget is their own.
    expect((await send(1, other.token, receiver.user.id)).status).toBe(201);
  });

  test("does not spend the budget on refused uploads", async () => {
    const [sender, receiver] = [await registerUser(t), await registerUser(t)];
    for (let i = 0; i < 15; i++) {
      const res = await t.call("POST", "/api/messages/upload", { token: sender.token, body: uploadForm(receiver.user.id, "file", [fileOf(new Uint8Array(0), "e")]) });
      expect(res.status).toBe(400);
    }
    expect((await t.call("POST", "/api/messages/upload-multiple", { token: sender.token, body: uploadForm(receiver.user.id, "files", files(10)) })).status).toBe(201);
  });
});
