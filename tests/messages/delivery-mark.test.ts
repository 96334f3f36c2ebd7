// A message stored while its receiver was away, who connected before it was announced (the race
// of an opening socket; run 17 under stress saw it on PostgreSQL): the sender's frames say "not
// yet", and message_delivered comes only once the delivery mark is committed, so a history read
// after it shows the mark; and it comes once, whoever marked first.
import { describe, expect, test } from "bun:test";
import { announceOne } from "../../src/messages/notify.ts";
import { markDelivered, storeText } from "../../src/messages/service.ts";
import { messageWriter } from "../../src/messages/writer.ts";
import { transaction } from "../../src/storage/index.ts";
import { findUser } from "../../src/users/service.ts";
import { closeSockets, connectedUser, listeningApp } from "../support/listening.ts";

const t = listeningApp();

/** Sender and receiver connected (the server holds both sockets), and a message stored as if the receiver were away. */
async function storedWhileAway() {
  const a = await connectedUser(t);
  const b = await connectedUser(t);
  await a.s.settle();
  await b.s.settle();
  const sender = (await findUser(t.ctx.db, a.user.id))!;
  const { row } = await messageWriter(t.ctx.db).submit((tx) => storeText(tx, t.ctx.clock, sender, { receiverId: b.user.id, content: "while away" }));
  expect(row.deliveredAt).toBeNull();
  return { a, b, sender, row };
}

describe("a message whose receiver connected before it was announced", () => {
  test("is told delivered only after the mark is committed, and the history shows it", async () => {
    const { a, b, sender, row } = await storedWhileAway();
    // The writer is held by a batch that has not committed, so the mark waits behind it.
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const holding = messageWriter(t.ctx.db).submit(() => gate);
    try {
      const { message } = announceOne(t.ctx, sender, row);
      expect(message.is_delivered).toBe(false);
      expect((await a.s.next("message_sent")).data.message).toMatchObject({ id: row.id, is_delivered: false });
      expect((await b.s.next("new_message")).data.message.id).toBe(row.id);
      expect(await a.s.silent("message_delivered")).toBe(true);
    } finally {
      release();
    }
    await holding;
    const delivered = await a.s.next("message_delivered");
    expect(delivered.data).toMatchObject({ messageId: row.id, receiverId: b.user.id });
    const history = await t.call("GET", `/api/messages/${a.user.id}`, { token: b.token });
    expect(history.body.messages.at(-1)).toMatchObject({ id: row.id, is_delivered: true, delivered_at: delivered.data.deliveredAt });
    closeSockets(a, b);
  });

  test("is not told twice when the receiver's opening marked it first", async () => {
    const { a, b, sender, row } = await storedWhileAway();
    // What the opening's delivery of waiting messages does (lifecycle.ts), before the announce.
    expect(await transaction(t.ctx.db, (tx) => markDelivered(tx, row.id, Date.now()))).toBe(true);
    announceOne(t.ctx, sender, row);
    await messageWriter(t.ctx.db).flush();
    expect(await transaction(t.ctx.db, (tx) => markDelivered(tx, row.id, Date.now()))).toBe(false);
    expect(await a.s.silent("message_delivered")).toBe(true);
    closeSockets(a, b);
  });
});
