// Pure rules for the open conversation: adding messages once, status ticks, and what an incoming
// message does to the unread counters (spec section 4).
import type { Message, TickState } from "./types.ts";

/** Adds messages whose id is not yet present, keeping the list oldest first. */
export function addMessages(list: Message[], incoming: Message[]): Message[] {
  const known = new Set(list.map((m) => m.id));
  const fresh = incoming.filter((m) => {
    if (known.has(m.id)) return false;
    known.add(m.id);
    return true;
  });
  if (fresh.length === 0) return list;
  const merged = [...list, ...fresh];
  // Older pages arrive before the current ones; keep one order however they came.
  return merged.sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id - b.id);
}

export function markDelivered(list: Message[], messageId: number, deliveredAt: string): Message[] {
  return list.map((m) =>
    m.id === messageId && !m.is_delivered ? { ...m, is_delivered: true, delivered_at: m.delivered_at ?? deliveredAt } : m,
  );
}

/** A read also marks the message delivered, using the read time if it had no delivered time. */
export function markRead(list: Message[], messageIds: number[], readAt: string): Message[] {
  const ids = new Set(messageIds);
  return list.map((m) =>
    ids.has(m.id)
      ? { ...m, is_read: true, read_at: m.read_at ?? readAt, is_delivered: true, delivered_at: m.delivered_at ?? readAt }
      : m,
  );
}

/** Single tick = sent, double grey = delivered, double blue = read (read_at set). */
export function tickState(m: Pick<Message, "is_delivered" | "is_read" | "read_at">): TickState {
  if (m.read_at || m.is_read) return "read";
  if (m.is_delivered) return "delivered";
  return "sent";
}

/** A group's ticks: the least advanced state among its files. */
export function groupTickState(files: Message[]): TickState {
  const states = files.map(tickState);
  if (states.includes("sent")) return "sent";
  if (states.includes("delivered")) return "delivered";
  return "read";
}

export interface IncomingContext {
  meId: number;
  /** The contact whose chat is open in chat view, or null. */
  openChatId: number | null;
}

export interface IncomingOutcome {
  /** The other person in the conversation. */
  contactId: number;
  /** Counts toward the total and the per-user unread numbers. */
  unread: boolean;
  /** Belongs to the open chat: show it there. */
  showInOpenChat: boolean;
  /** The open chat is the sender's: mark it read at once. */
  markRead: boolean;
}

/**
 * An incoming message counts as unread only if addressed to me and the sender's chat is not
 * open; if that chat is open in chat view, it is marked read instead.
 */
export function incomingOutcome(message: Message, ctx: IncomingContext): IncomingOutcome {
  const mine = message.sender_id === ctx.meId;
  const contactId = mine ? message.receiver_id : message.sender_id;
  const toMe = message.receiver_id === ctx.meId && !mine;
  const open = ctx.openChatId !== null && ctx.openChatId === contactId;
  return { contactId, unread: toMe && !open, showInOpenChat: open, markRead: toMe && open };
}

/** A client-made id that makes sending safe to retry (at most 64 characters, API.md). */
export function clientMessageId(): string {
  const c = globalThis.crypto;
  if (c && typeof c.randomUUID === "function") return c.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 12)}`;
}
