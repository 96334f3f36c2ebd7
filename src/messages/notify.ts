// Telling people about stored messages. Both the socket and the HTTP upload calls use these, so
// a file and a text message reach the other side the same way.
import type { MessageRow, UserRow } from "../storage/tables.ts";
import type { AppContext } from "../context.ts";
import type { Message } from "../realtime/protocol.ts";
import { iso } from "../time.ts";
import { markDelivered, toMessage, type MessageExtras } from "./service.ts";
import { messageWriter } from "./writer.ts";
import { errorFields } from "../observability/log.ts";

/** The delivery time to store with a new message: now, when the receiver has a socket open. */
export function deliveredNow(ctx: Pick<AppContext, "hub">, receiverId: number): number | null {
  // Several instances: a receiver whose tabs are all on other instances is known here too (the
  // presence copy, no round trip), so the message is stored delivered as in one process, instead
  // of a second write and a Redis question per message (deliveredElsewhere, for files and misses).
  return ctx.hub.isConnected(receiverId) || ctx.hub.isPresent(receiverId) ? Date.now() : null;
}

/**
 * After storing: `message_sent` to every socket of the sender, `new_message` to every socket of
 * the receiver and, when the receiver is connected, the delivery mark and `message_delivered`;
 * when not, a push to their devices.
 * Returns the messages as sent to the sender (delivered when that happened at once). Each side
 * gets its own copy: `partner_id` names the other person, which differs between the two.
 */
export function announceStored(ctx: AppContext, sender: UserRow, rows: MessageRow[]): Message[] {
  // Files sent together are one push (the last), not one per file.
  return rows.map((row, i) => announceOne(ctx, sender, row, undefined, i === rows.length - 1).message);
}

/**
 * announceStored for one message, also answering the sender's copy as JSON, so the ack can carry
 * it without encoding it again. The message is encoded once: the receiver's copy differs only in
 * `partner_id`, which toMessage puts last, so it is spliced in (the frames are byte for byte what
 * encodeEvent would make).
 */
export function announceOne(ctx: AppContext, sender: UserRow, row: MessageRow, extras?: MessageExtras, push = true): { message: Message; json: string } {
  // Writing to someone makes them a contact (privacy "contacts", unblurred pictures).
  ctx.contacts.add(sender.id, row.receiverId);
  // Text messages carry their delivery time from the insert (deliveredNow); a file stored while
  // the receiver was away but who connected since is marked here.
  let stored = row;
  if (row.deliveredAt === null && ctx.hub.isConnected(row.receiverId)) {
    stored = { ...row, deliveredAt: Date.now() };
    // With the writer's next batch (it takes its turn with every other write): the frames below
    // already say delivered, and the mark is only what a later history page shows.
    const at = stored.deliveredAt!;
    messageWriter(ctx.db)
      .submit((tx) => markDelivered(tx, row.id, at), { oneStatement: true })
      .catch((error: unknown) => ctx.log.error("a delivery mark was not saved", { message_id: row.id, ...errorFields(error) }));
  }
  const deliveredAt = stored.deliveredAt;
  const message = toMessage(stored, sender.name, sender.id, extras);
  const json = JSON.stringify(message);
  const receiverJson = `${json.slice(0, json.lastIndexOf(',"partner_id":'))},"partner_id":${sender.id}}`;
  ctx.hub.sendTextToUser(sender.id, `{"event":"message_sent","data":{"message":${json}}}`);
  ctx.hub.sendTextToUser(row.receiverId, `{"event":"new_message","data":{"message":${receiverJson}}}`);
  if (deliveredAt !== null) {
    ctx.hub.sendToUser(sender.id, "message_delivered", { messageId: row.id, deliveredAt: iso(deliveredAt), receiverId: row.receiverId });
  } else if (ctx.ports.fanOut.distributed) {
    // isConnected is this instance's view: the receiver's sockets may all be on another one.
    void deliveredElsewhere(ctx, sender, stored, push);
  } else if (push) {
    // Nobody there to see it: their devices with notifications on hear who wrote (src/push/).
    void ctx.push.message(sender, stored);
  }
  return { message, json };
}

/**
 * Several instances: the frame above went to every instance holding a socket of the receiver (the
 * fan-out set in Redis). When one does, the message is delivered: it is marked as when they
 * connect, and the sender hears `message_delivered` live (after the ack, which said not yet).
 * When none does (or Redis cannot say), nothing is marked: the mark comes when they next connect,
 * and their devices get the push as in one process.
 */
async function deliveredElsewhere(ctx: AppContext, sender: UserRow, row: MessageRow, push: boolean): Promise<void> {
  if (!(await ctx.ports.fanOut.heldElsewhere(row.receiverId))) {
    if (push) await ctx.push.message(sender, row);
    return;
  }
  const at = Date.now();
  try {
    await messageWriter(ctx.db).submit((tx) => markDelivered(tx, row.id, at), { oneStatement: true });
  } catch (error) {
    ctx.log.error("a delivery mark was not saved", { message_id: row.id, ...errorFields(error) });
    return;
  }
  ctx.hub.sendToUser(sender.id, "message_delivered", { messageId: row.id, deliveredAt: iso(at), receiverId: row.receiverId });
}

/**
 * `messages_read_batch` to the sender of messages that were just read. Across a block the rows
 * are still marked read; only the event is dropped.
 */
export function announceRead(ctx: AppContext, readerId: number, senderId: number, rows: MessageRow[], readAt: number): void {
  if (rows.length === 0 || ctx.blocks.between(readerId, senderId)) return;
  ctx.hub.sendToUser(senderId, "messages_read_batch", { messageIds: rows.map((r) => r.id), receiverId: readerId, readAt: iso(readAt) });
}

/** `message_delivered` to each sender of messages delivered now that the receiver connected. */
export function announceDelivered(ctx: AppContext, rows: MessageRow[]): void {
  for (const row of rows) {
    // A delivery mark would tell a blocked sender that the blocker came online.
    if (row.deliveredAt === null || ctx.blocks.between(row.senderId, row.receiverId)) continue;
    ctx.hub.sendToUser(row.senderId, "message_delivered", { messageId: row.id, deliveredAt: iso(row.deliveredAt), receiverId: row.receiverId });
  }
}
