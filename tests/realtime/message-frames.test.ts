// The message path encodes a message once and splices it into its frames (messages/notify.ts):
// the frames must read exactly as if each were encoded on its own.
import { describe, expect, test } from "bun:test";
import { connectedUser, listeningApp } from "../support/listening.ts";

const t = listeningApp();

describe("message frames", () => {
  test("the ack, message_sent and new_message carry the same message, each with its own partner_id", async () => {
    const a = await connectedUser(t);
    const b = await connectedUser(t);
    const content = 'tricky ,"partner_id":1} \u2028 "quotes" \\ ünï 😀';
    const ack = await a.s.ask("send_message", { receiverId: b.user.id, content, clientMessageId: "frames-1" });
    const sent = await a.s.next("message_sent");
    const received = await b.s.next("new_message");
    expect(ack.data.message.content).toBe(content);
    expect(ack.data.message.partner_id).toBe(b.user.id);
    expect(sent.data.message).toEqual(ack.data.message);
    expect(received.data.message).toEqual({ ...ack.data.message, partner_id: a.user.id });
    expect(Object.keys(received.data.message)).toEqual(Object.keys(ack.data.message));
    a.s.close();
    b.s.close();
  });
});
