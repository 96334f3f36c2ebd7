// One-to-one messages: storing (before anyone is told), delivery and read marks, paging a
// conversation, and the chat list with unread counts read from the conversations table.
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { messages, users, type MessageRow, type NewMessageRow, type UserRow } from "../storage/tables.ts";
import { atomic, transaction, type Db, type Tx } from "../storage/index.ts";
import { notFound, validationError } from "../http/errors.ts";
import { NUL_REFUSED } from "../http/nul.ts";
import type { Message, MessageReactions, MessageType, PublicUser, ReplyPreview } from "../realtime/protocol.ts";
import { iso, isoOrNull } from "../time.ts";
import { conversationList, conversationsAfterRead, unreadByPartner } from "./conversations.ts";
import { statements, userExists } from "./statements.ts";
import { isBannedNow, toPublicUser } from "../users/service.ts";
import { cachedUser } from "../users/cache.ts";
import { extrasFrom, extrasOf } from "./actions/extras.ts";
import { admitReply } from "./actions/reply.ts";

export const MAX_TEXT = 4000;

/**
 * A message's text as stored, the same on both engines: trimmed; half a surrogate pair (which
 * UTF-8 cannot hold, so SQLite would store U+FFFD and PostgreSQL refuse the row) becomes U+FFFD; a
 * NUL (which PostgreSQL's text cannot hold) is refused with a clear error, not dropped unseen.
 */
export function messageText(raw: string): string {
  // ES2024's String#toWellFormed, native in Bun; the project's lib stays ES2023 for the browsers.
  const content = (raw.trim() as unknown as { toWellFormed(): string }).toWellFormed();
  if (content.length < 1 || content.length > MAX_TEXT) {
    throw validationError({ content: `A message must be 1 to ${MAX_TEXT} characters` });
  }
  if (content.includes("\u0000")) throw validationError({ content: NUL_REFUSED });
  return content;
}

/**
 * Message times strictly increase, even for ten files stored in one millisecond, so a time
 * cursor (`before`) never skips or repeats a message. On SQLite one process writes, so a counter
 * does. On PostgreSQL each instance counts for itself and two may share a millisecond: there the
 * page cursor also carries the id (history.ts).
 */
export class MessageClock {
  private last = 0;
  constructor(private readonly db: Db) {}

  /** At start-up (context.ts loadContext): the newest stored time, which the next one passes. */
  async load(): Promise<void> {
    const [row] = await this.db.select({ max: sql<number | null>`max(${messages.createdAt})`.mapWith(Number) }).from(messages);
    this.last = Math.max(this.last, row?.max ?? 0);
  }

  next(): number {
    this.last = Math.max(Date.now(), this.last + 1);
    return this.last;
  }
}

/** What a message row alone does not hold: the replied-to message and the reactions. */
export interface MessageExtras {
  replyTo: ReplyPreview | null;
  reactions: MessageReactions[];
}

const NO_EXTRAS: MessageExtras = { replyTo: null, reactions: [] };

/**
 * `viewerId`: whose screen it goes to, for `partner_id` (the other person of the conversation).
 * `extras`: a new message has no reactions, and no reply unless it was sent as one.
 */
export function toMessage(row: MessageRow, senderName: string, viewerId: number, extras: MessageExtras = NO_EXTRAS): Message {
  const gone = row.removedAt !== null || row.deletedAt !== null;
  return {
    id: row.id,
    sender_id: row.senderId,
    receiver_id: row.receiverId,
    sender_name: senderName,
    // Removed by a moderator or deleted by its sender: nothing of it is sent again, whatever the row still holds.
    content: gone ? "" : row.content,
    message_type: row.messageType as MessageType,
    file_name: gone ? null : row.fileName,
    file_path: gone ? null : row.filePath,
    file_size: gone ? null : row.fileSize,
    group_id: row.groupId,
    client_message_id: row.clientMessageId,
    clientMessageId: row.clientMessageId,
    created_at: iso(row.createdAt),
    is_delivered: row.deliveredAt !== null,
    delivered_at: isoOrNull(row.deliveredAt),
    is_read: row.readAt !== null,
    read_at: isoOrNull(row.readAt),
    is_removed: row.removedAt !== null,
    reply_to: extras.replyTo,
    edited_at: isoOrNull(row.editedAt),
    deleted_at: isoOrNull(row.deletedAt),
    reactions: extras.reactions,
    duration_ms: gone ? null : row.durationMs,
    // Last, always: notify.ts splices the receiver's copy by this key.
    partner_id: row.senderId === viewerId ? row.receiverId : row.senderId,
  };
}

/** Refuses oneself and an unknown receiver; answers at once (no promise) for a receiver seen before. */
export function requireContact(db: Db, senderId: number, receiverId: number): void | Promise<void> {
  if (receiverId === senderId) throw validationError({ receiverId: "You cannot send a message to yourself" });
  const exists = userExists(db, receiverId);
  if (exists === true) return;
  if (exists === false) throw notFound("That user does not exist");
  return exists.then((found) => {
    if (!found) throw notFound("That user does not exist");
  });
}

/**
 * Every stored message passes here, text or file; the insert writes the conversation's summary
 * with it (statements.ts). `deliveredAt` is set when the receiver
 * has a socket open now, so delivery costs no second write.
 */
export async function insertMessage(db: Tx, values: NewValues): Promise<MessageRow> {
  const row = await insertUnlessStored(db, values);
  if (!row) throw new Error(`message ${values.clientMessageId} of user ${values.senderId} is already stored`);
  return row;
}

type NewValues = Omit<NewMessageRow, "id" | "pairLo" | "pairHi">;

/**
 * insertMessage, or null, having written nothing, when the sender already stored a message under
 * this client id. On SQLite it answers at once (no promise): the path every message takes.
 */
export function insertUnlessStored(db: Tx, values: NewValues): MessageRow | null | Promise<MessageRow | null> {
  const { senderId, receiverId } = values;
  // Every column the insert writes is bound here, and the rest (read, removed) start null, so the
  // row is what a RETURNING would have read back, without SQLite producing it and bun:sqlite
  // converting it on every message.
  const bound = {
    senderId,
    receiverId,
    pairLo: Math.min(senderId, receiverId),
    pairHi: Math.max(senderId, receiverId),
    content: values.content,
    messageType: values.messageType,
    fileName: values.fileName ?? null,
    filePath: values.filePath ?? null,
    fileSize: values.fileSize ?? null,
    fileMime: values.fileMime ?? null,
    groupId: values.groupId ?? null,
    clientMessageId: values.clientMessageId ?? null,
    createdAt: values.createdAt,
    deliveredAt: values.deliveredAt ?? null,
    replyToId: values.replyToId ?? null,
    durationMs: values.durationMs ?? null,
  };
  const rowOf = (id: number | null): MessageRow | null =>
    id === null ? null : { id, ...bound, removedAt: null, readAt: null, editedAt: null, deletedAt: null };
  const inserted = statements(db).insert(db, bound);
  return inserted instanceof Promise ? inserted.then(rowOf) : rowOf(inserted);
}

export interface TextInput {
  receiverId: number;
  content: string;
  messageType?: "text" | "emoji";
  clientMessageId?: string;
  /** The message this one answers (actions/reply.ts checks it). */
  replyToId?: number;
}

export interface StoredText {
  row: MessageRow;
  created: boolean;
  replyTo: ReplyPreview | null;
}

/**
 * Stores a text or emoji message; `created: false` when clientMessageId names one already stored.
 * `admit` refuses (throws) when the receiver may not be written to; it runs after the receiver is
 * known to exist, so an unknown id stays a 404 and a retry of a stored message stays idempotent.
 * `deliveredAt` answers the delivery time to store (now, when the receiver is connected).
 * Inside the writer's batch on SQLite, a message to a known receiver that answers no other is
 * stored and answered at once, without a promise: the path nearly every message takes. A refusal
 * may then be thrown rather than returned as a rejected promise.
 */
export function storeText(
  db: Db | Tx,
  clock: MessageClock,
  sender: UserRow,
  input: TextInput,
  admit: (receiverId: number) => void = () => {},
  deliveredAt: (receiverId: number) => number | null = () => null,
): StoredText | Promise<StoredText> {
  const content = messageText(input.content);
  // Its place in the conversation is taken on arrival, before any await: on PostgreSQL the checks
  // below may read on different pooled connections, which answer in any order, and one sender's
  // messages must keep the order they were sent in.
  const createdAt = clock.next();
  // One transaction: the message and both sides' conversation rows (insertMessage writes them).
  // Inside the writer's batch no savepoint is made: every check that refuses comes first, and the
  // writer replays the batch with savepoints if the insert itself fails (messages/writer.ts).
  const write = (replyTo: ReplyPreview | null): StoredText | Promise<StoredText> => {
    const values = {
      senderId: sender.id,
      receiverId: input.receiverId,
      content,
      messageType: input.messageType ?? "text",
      clientMessageId: input.clientMessageId ?? null,
      createdAt,
      deliveredAt: deliveredAt(input.receiverId),
      replyToId: replyTo?.id ?? null,
    };
    const done = (row: MessageRow | null): StoredText | Promise<StoredText> =>
      // Null: the insert met the client id already stored (an earlier try, maybe in this very batch).
      row ? { row, created: true, replyTo } : storedBefore(db, sender, input).then((found) => found!);
    const row = atomic(db, (tx) => insertUnlessStored(tx, values));
    return row instanceof Promise ? row.then(done) : done(row);
  };
  // A retry of a stored message gets that message back, even if it would now be refused.
  const refused = async (error: unknown): Promise<StoredText> => {
    const retry = await storedBefore(db, sender, input);
    if (retry) return retry;
    throw error;
  };
  let checked: void | Promise<ReplyPreview | null>;
  try {
    checked = checkText(db, sender, input, admit);
  } catch (error) {
    return refused(error);
  }
  return checked ? checked.then(write, refused) : write(null);
}

/** storeText's checks; answers at once (no promise) for a receiver seen before and no reply. */
function checkText(db: Db | Tx, sender: UserRow, input: TextInput, admit: (receiverId: number) => void): void | Promise<ReplyPreview | null> {
  const known = requireContact(db, sender.id, input.receiverId);
  if (!known && input.replyToId === undefined) return admit(input.receiverId);
  return (async () => {
    await known;
    admit(input.receiverId);
    if (input.replyToId === undefined) return null;
    return admitReply(db, sender.id, input.receiverId, input.replyToId, await namesOf(db, sender, input.receiverId));
  })();
}

/** The two people's names, for a reply's quote: read only for a reply or a retry. */
async function namesOf(db: Db | Tx, sender: UserRow, receiverId: number): Promise<(id: number) => string> {
  const receiver = await cachedUser(db, receiverId);
  return (id: number) => (id === sender.id ? sender.name : (receiver?.name ?? ""));
}

/** The message the sender already stored under this client id, with its reply quote, if any. */
async function storedBefore(db: Db | Tx, sender: UserRow, input: TextInput): Promise<StoredText | null> {
  const row = input.clientMessageId === undefined ? undefined : await statements(db).byClientId(db, sender.id, input.clientMessageId);
  if (!row) return null;
  const extras = await extrasOf(db, [row], await namesOf(db, sender, input.receiverId));
  return { row, created: false, replyTo: extras.get(row.id)!.replyTo };
}

export type FileMessageInput = Pick<NewMessageRow, "content" | "messageType" | "fileName" | "filePath" | "fileSize" | "fileMime" | "groupId" | "durationMs">;

/**
 * Stores file messages of one upload in one transaction; `deliveredAt` as for text (storeText),
 * asked once the transaction has its turn.
 */
export async function storeFiles(
  db: Db,
  clock: MessageClock,
  senderId: number,
  receiverId: number,
  files: FileMessageInput[],
  deliveredAt: (receiverId: number) => number | null = () => null,
): Promise<MessageRow[]> {
  return transaction(db, async (tx) => {
    const rows: MessageRow[] = [];
    const delivered = deliveredAt(receiverId);
    for (const file of files) rows.push(await insertMessage(tx, { ...file, senderId, receiverId, createdAt: clock.next(), deliveredAt: delivered }));
    return rows;
  });
}

/**
 * Writes: run inside a transaction (the message writer's batch, see notify.ts and lifecycle.ts).
 * False when the message was marked already (its receiver's opening delivered it first).
 */
export function markDelivered(tx: Tx, messageId: number, at: number): boolean | Promise<boolean> {
  return statements(tx).markDelivered(tx, messageId, at);
}

/** Everything sent to a user while they were away, now marked delivered (inside a transaction). */
export function deliverPending(tx: Tx, receiverId: number, at: number): MessageRow[] | Promise<MessageRow[]> {
  return statements(tx).deliverPending(tx, receiverId, at);
}

/**
 * Marks messages from `senderId` to `readerId` as read (all unread ones, or only `ids`).
 * A read message is delivered too, at the read time if it had no delivery time.
 */
export async function markRead(db: Db, readerId: number, senderId: number, at: number, ids?: number[]): Promise<MessageRow[]> {
  if (ids?.length === 0) return [];
  const prepared = statements(db);
  return transaction(db, async (tx) => {
    const rows = await (ids ? prepared.markReadIds(tx, readerId, senderId, at, ids) : prepared.markReadAll(tx, readerId, senderId, at));
    await conversationsAfterRead(tx, readerId, senderId, rows.length);
    return rows;
  });
}

export async function senderNames(db: Db, ids: number[]): Promise<Map<number, string>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const rows = await db.select({ id: users.id, name: users.name }).from(users).where(inArray(users.id, unique));
  return new Map(rows.map((r) => [r.id, r.name]));
}

export async function withNames(db: Db, rows: MessageRow[], viewerId: number): Promise<Message[]> {
  const names = await senderNames(db, rows.flatMap((r) => [r.senderId, r.receiverId]));
  const extras = await extrasOf(db, rows, (id) => names.get(id) ?? "");
  return rows.map((r) => toMessage(r, names.get(r.senderId) ?? "", viewerId, extras.get(r.id)));
}

export interface ChatUser extends PublicUser {
  latest_message: Message | null;
  unread_count: number;
  /** Has the caller written to this person? (Their pictures show unblurred when so.) */
  is_contact: boolean;
}

/** What the caller may see: people kept apart by a block are left out; who they have written to. */
export interface ChatView {
  hidden: ReadonlySet<number>;
  hasWritten: (otherId: number) => boolean;
}

const OPEN_VIEW: ChatView = { hidden: new Set(), hasWritten: () => false };

/**
 * Everyone the user has a conversation with, newest conversation first, each with the latest
 * message and the number of unread messages from them: one indexed read of the user's
 * conversation rows, whatever the number of messages behind them.
 */
export async function chatUsers(db: Db, self: Pick<UserRow, "id" | "name">, view: ChatView = OPEN_VIEW): Promise<ChatUser[]> {
  const userId = self.id;
  const rows = await conversationList(db, userId);
  // Blocked conversations stay stored (they come back on unblock); they are only left out here,
  // as are conversations with someone banned (the messages stay readable by opening the chat).
  const now = Date.now();
  const shown = rows.filter(({ contact }) => !view.hidden.has(contact.id) && !isBannedNow(contact, now));
  const names = new Map<number, string>(shown.map(({ contact }) => [contact.id, contact.name]));
  names.set(self.id, self.name);
  const nameOf = (id: number) => names.get(id) ?? "";
  const extras = shown.every((row) => row.extras)
    ? new Map(shown.map(({ message, extras }) => [message.id, extrasFrom(extras!.replyTo, extras!.reactions, nameOf)]))
    : await extrasOf(db, shown.map(({ message }) => message), nameOf);
  return shown
    .map(({ message, contact, unread }) => ({
      ...toPublicUser(contact),
      latest_message: toMessage(message, message.senderId === contact.id ? contact.name : self.name, userId, extras.get(message.id)),
      unread_count: unread,
      is_contact: view.hasWritten(contact.id),
    }));
}

/** Unread messages, leaving out senders kept apart by a block (their chat is hidden too). */
export async function unreadCount(db: Db, userId: number, hidden: ReadonlySet<number> = OPEN_VIEW.hidden): Promise<number> {
  return (await unreadPerUser(db, userId, hidden)).reduce((sum, row) => sum + row.unread_count, 0);
}

/** Per sender, in sender id order; banned senders are left out like blocked ones. */
export async function unreadPerUser(db: Db, userId: number, hidden: ReadonlySet<number> = OPEN_VIEW.hidden) {
  const now = Date.now();
  return (await unreadByPartner(db, userId))
    .filter((row) => !hidden.has(row.sender_id) && !isBannedNow(row, now))
    .map(({ sender_id, sender_name, unread_count }) => ({ sender_id, sender_name, unread_count }));
}

export async function findByFilePath(db: Db, filePath: string): Promise<MessageRow | undefined> {
  return (await db.select().from(messages).where(eq(messages.filePath, filePath)).limit(1))[0];
}
