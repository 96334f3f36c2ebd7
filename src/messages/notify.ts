// Telling people about stored messages. Both the socket and the HTTP upload calls use these, so
// a file and a text message reach the other side the same way.
import type { MessageRow, UserRow } from "../storage/tables.ts";
import type { AppContext } from "../context.ts";
import type { Message } from "../realtime/protocol.ts";
import { iso } from "../time.ts";
import { markDelivered, toMessage, type MessageExtras } from "./service.ts";
import { messageWriter } from "./writer.ts";
import { logFailure } from "../storage/unavailable.ts";

/** The delivery time to store with a new message: now, when the receiver has a socket open. */
export function deliveredNow(ctx: Pick<AppContext, "hub">, receiverId: number): number | null {
  // Several instances: a receiver whose tabs are all on other instances is known here too (the
  // presence copy, no round trip), so the message is stored delivered as in one process, instead
  // of a second write and a Redis question per message (deliveredElsewhere, for files and misses).
  return ctx.hub.isConnected(receiverId) || ctx.hub.isPresent(receiverId) ? Date.now() : null;
}

/**
 * After storing: `message_sent` to every socket of the sender, `new_message` to every socket of
 * the receiver and, when the receiver is connected, `message_delivered` (at once for a message
 * stored delivered; after its mark is committed for one whose receiver connected since); when
 * not, a push to their devices.
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
  const message = toMessage(row, sender.name, sender.id, extras);
  const json = JSON.stringify(message);
  const receiverJson = `${json.slice(0, json.lastIndexOf(',"partner_id":'))},"partner_id":${sender.id}}`;
  ctx.hub.sendTextToUser(sender.id, `{"event":"message_sent","data":{"message":${json}}}`);
  ctx.hub.sendTextToUser(row.receiverId, `{"event":"new_message","data":{"message":${receiverJson}}}`);
  if (row.deliveredAt !== null) {
    // The frame encodeEvent would make, with the time toMessage has already written out.
    const frame = `{"event":"message_delivered","data":{"messageId":${row.id},"deliveredAt":"${message.delivered_at}","receiverId":${row.receiverId}}}`;
    ctx.hub.sendTextToUser(sender.id, frame);
  } else if (ctx.hub.isConnected(row.receiverId)) {
    // Stored while the receiver was away, who has connected since (between the insert's check
    // and now): the frame above reached them, so it is delivered, but only once that is saved.
    void markThenTell(ctx, sender, row);
  } else if (ctx.ports.fanOut.distributed) {
    // isConnected is this instance's view: the receiver's sockets may all be on another one.
    void deliveredElsewhere(ctx, sender, row, push);
  } else if (push) {
    // Nobody there to see it: their devices with notifications on hear who wrote (src/push/).
    void ctx.push.message(sender, row);
  }
  return { message, json };
}

/**
 * Several instances: the frame above went to every instance holding a socket of the receiver (the
 * fan-out set in Redis). When one does, the message is delivered (markThenTell). When none does
 * (or Redis cannot say), nothing is marked: the mark comes when they next connect, and their
 * devices get the push as in one process.
 */
async function deliveredElsewhere(ctx: AppContext, sender: UserRow, row: MessageRow, push: boolean): Promise<void> {
  if (await ctx.ports.fanOut.heldElsewhere(row.receiverId)) return markThenTell(ctx, sender, row);
  if (push) await ctx.push.message(sender, row);
}

/**
 * Marks the message delivered with the writer's next batch and, once that has committed, tells
 * the sender (after the ack and message_sent, which said not yet): a history read after the
 * frame shows the mark. Nothing is told when the receiver's opening marked it first: that
 * opening tells the sender itself (announceDelivered), so the frame comes once.
 */
async function markThenTell(ctx: AppContext, sender: UserRow, row: MessageRow): Promise<void> {
  const at = Date.now();
  let marked: boolean;
  try {
    marked = await messageWriter(ctx.db).submit((tx) => markDelivered(tx, row.id, at), { oneStatement: true });
  } catch (error) {
    logFailure(ctx.log, "a delivery mark was not saved", error, { message_id: row.id });
    return;
  }
  if (marked) ctx.hub.sendToUser(sender.id, "message_delivered", { messageId: row.id, deliveredAt: iso(at), receiverId: row.receiverId });
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
