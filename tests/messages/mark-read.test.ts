import { describe, expect, test } from "bun:test";
import { registerUser } from "../support/app.ts";
import { listeningApp } from "../support/listening.ts";
import { connect } from "../support/ws.ts";
import { sendText, sendTexts } from "./seed.ts";

const t = listeningApp();

const markRead = (token: string, senderId: number | string) => t.call("PUT", `/api/messages/mark-read/${senderId}`, { token });

describe("PUT /api/messages/mark-read/:senderId", () => {
  test("marks every unread message from that sender read and tells the sender in one batch", async () => {
    const [sender, reader, other] = [await registerUser(t), await registerUser(t), await registerUser(t)];
    const ids = await sendTexts(t, sender.user.id, reader.user.id, 3);
    const mine = await sendText(t, reader.user.id, sender.user.id, "my own message stays unread");
    await sendText(t, other.user.id, reader.user.id, "from someone else");
    const senderSocket = await connect(t.wsUrl, sender.token);
    try {
      const res = await markRead(reader.token, sender.user.id);
      expect(res.status).toBe(200);
      expect(res.body.updatedCount).toBe(3);
      expect(res.body.readMessages.map((m: { id: number }) => m.id).sort()).toEqual(ids);
      const readAt = res.body.readMessages[0].read_at;
      expect(readAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

      const batch = await senderSocket.next("messages_read_batch");
      expect(batch.data.messageIds.sort()).toEqual(ids);
      expect(batch.data).toMatchObject({ receiverId: reader.user.id, readAt });

      const conversation = (await t.call("GET", `/api/messages/${sender.user.id}`, { token: reader.token })).body.messages;
      for (const message of conversation) {
        expect(message.is_read).toBe(message.id !== mine);
        if (message.id !== mine) expect(message.is_delivered).toBe(true);
      }
      expect((await t.call("GET", "/api/messages/unread/count", { token: reader.token })).body.unread_count).toBe(1);
    } finally {
      senderSocket.close();
    }
  });

  test("answers zero and sends no event when nothing was unread", async () => {
    const [sender, reader] = [await registerUser(t), await registerUser(t)];
    await sendText(t, sender.user.id, reader.user.id, "hello");
    await markRead(reader.token, sender.user.id);
    const senderSocket = await connect(t.wsUrl, sender.token);
    try {
      const again = await markRead(reader.token, sender.user.id);
      expect(again.body).toEqual({ updatedCount: 0, readMessages: [] });
      expect(await senderSocket.silent("messages_read_batch")).toBe(true);
    } finally {
      senderSocket.close();
    }
  });

  test("cannot mark the other person's messages read on their behalf", async () => {
    const [sender, reader] = [await registerUser(t), await registerUser(t)];
    await sendText(t, sender.user.id, reader.user.id, "unread for the reader");
    const res = await markRead(sender.token, reader.user.id);
    expect(res.body.updatedCount).toBe(0);
    expect((await t.call("GET", "/api/messages/unread/count", { token: reader.token })).body.unread_count).toBe(1);
  });

  test("ignores a body the client may send with it", async () => {
    const [sender, reader] = [await registerUser(t), await registerUser(t)];
    await sendText(t, sender.user.id, reader.user.id, "hello");
    const res = await t.call("PUT", `/api/messages/mark-read/${sender.user.id}`, { token: reader.token, json: "{not json" });
    expect(res.status).toBe(200);
    expect(res.body.updatedCount).toBe(1);
  });

  test("refuses a bad id with 400, an unknown sender with 404 and no token with 401", async () => {
    const reader = await registerUser(t);
    expect((await markRead(reader.token, "abc")).status).toBe(400);
    expect((await markRead(reader.token, reader.user.id)).status).toBe(400);
    const unknown = await markRead(reader.token, 999999);
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe("not_found");
    expect((await markRead("", 1)).status).toBe(401);
  });
});
