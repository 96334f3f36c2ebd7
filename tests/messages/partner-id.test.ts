// partner_id (spec section 3) is the other person of the conversation as the viewer sees it, so
// the same stored message carries a different partner_id to each side, on every path it leaves by.
import { describe, expect, test } from "bun:test";
import { connectedUser, listeningApp } from "../support/listening.ts";
import { fileOf, uploadForm } from "../uploads/fixtures.ts";

const t = listeningApp();

describe("partner_id", () => {
  test("names the receiver in the sender's ack and message_sent, and the sender in new_message", async () => {
    const [ann, ben] = [await connectedUser(t), await connectedUser(t)];
    try {
      const ack = await ann.s.ask("send_message", { receiverId: ben.user.id, content: "hello" });
      expect(ack.data.message.partner_id).toBe(ben.user.id);
      expect((await ann.s.next("message_sent")).data.message.partner_id).toBe(ben.user.id);
      expect((await ben.s.next("new_message")).data.message.partner_id).toBe(ann.user.id);
      // A retried send answers the stored message, with the same partner_id.
      const again = await ann.s.ask("send_message", { receiverId: ben.user.id, content: "once", clientMessageId: "c-1" });
      const retried = await ann.s.ask("send_message", { receiverId: ben.user.id, content: "once", clientMessageId: "c-1" });
      expect(retried.data.message).toMatchObject({ id: again.data.message.id, partner_id: ben.user.id });
    } finally {
      ann.s.close();
      ben.s.close();
    }
  });

  test("is the other person in both sides' history and chat list", async () => {
    const [ann, ben] = [await connectedUser(t), await connectedUser(t)];
    try {
      await ann.s.ask("send_message", { receiverId: ben.user.id, content: "from ann" });
      await ben.s.ask("send_message", { receiverId: ann.user.id, content: "from ben" });
      for (const [viewer, other] of [[ann, ben], [ben, ann]] as const) {
        const history = await t.call("GET", `/api/messages/${other.user.id}`, { token: viewer.token });
        expect(history.body.messages.map((m: { partner_id: number }) => m.partner_id)).toEqual([other.user.id, other.user.id]);
        const chats = await t.call("GET", "/api/messages/chat-users-with-messages", { token: viewer.token });
        expect(chats.body.users[0].latest_message.partner_id).toBe(other.user.id);
      }
    } finally {
      ann.s.close();
      ben.s.close();
    }
  });

  test("comes with uploaded files: the answer and message_sent name the receiver, new_message the sender", async () => {
    const [ann, ben] = [await connectedUser(t), await connectedUser(t)];
    try {
      const one = await t.call("POST", "/api/messages/upload", { token: ann.token, body: uploadForm(ben.user.id, "file", [fileOf("a", "a.txt")]) });
      expect(one.status).toBe(201);
      expect(one.body.message.partner_id).toBe(ben.user.id);
      expect((await ann.s.next("message_sent")).data.message.partner_id).toBe(ben.user.id);
      expect((await ben.s.next("new_message")).data.message.partner_id).toBe(ann.user.id);
      const many = await t.call("POST", "/api/messages/upload-multiple", {
        token: ann.token,
        body: uploadForm(ben.user.id, "files", [fileOf("b", "b.txt"), fileOf("c", "c.txt")]),
      });
      expect(many.body.messages.map((m: { partner_id: number }) => m.partner_id)).toEqual([ben.user.id, ben.user.id]);
    } finally {
      ann.s.close();
      ben.s.close();
    }
  });
});
