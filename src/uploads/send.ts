// Sending files to a person: checked, counted against the per-user budget and quota, cleaned,
// placed under random names, stored as messages in one transaction and announced like text.
// A failure at any step removes what was placed, so no file exists without its message.
import type { UserRow } from "../storage/tables.ts";
import type { AppContext } from "../context.ts";
import { rateLimited } from "../http/errors.ts";
import { announceStored, deliveredNow } from "../messages/notify.ts";
import { requireContact, storeFiles } from "../messages/service.ts";
import { admitMessage } from "../privacy/gate.ts";
import type { Message } from "../realtime/protocol.ts";
import { assertSize, MAX_FILE_BYTES } from "./limits.ts";
import { prepareChatFile, type PreparedFile } from "./prepare.ts";
import type { Received } from "./receive.ts";
import { asStorageError, placeUpload, removeUpload } from "./storage.ts";

/** Refuses before the body is even read when the user has no budget or no room left at all. */
export async function assertUploadBudget(ctx: AppContext, userId: number): Promise<void> {
  const wait = await ctx.limits.uploads.retryAfter(String(userId));
  if (wait > 0) throw rateLimited(wait);
}

export async function takeUploads(ctx: AppContext, userId: number, count: number): Promise<void> {
  const wait = await ctx.limits.uploads.take(String(userId), count);
  if (wait > 0) throw rateLimited(wait);
}

export async function sendFiles(
  ctx: AppContext,
  sender: UserRow,
  receiverId: number,
  received: Received,
  field: string,
  groupId: string | null,
  prepare: (file: Received["files"][number]) => Promise<PreparedFile> = (file) => prepareChatFile(ctx, sender.id, file, received),
): Promise<Message[]> {
  for (const file of received.files) assertSize(file, MAX_FILE_BYTES, field);
  await requireContact(ctx.db, sender.id, receiverId);
  admitMessage(ctx, sender.id, receiverId);
  await takeUploads(ctx, sender.id, received.files.length);
  // One at a time: each picture waits for its turn in the decode queue anyway.
  const prepared: PreparedFile[] = [];
  for (const file of received.files) prepared.push(await prepare(file));
  const total = prepared.reduce((sum, file) => sum + file.size, 0);
  await ctx.uploads.ledger.reserve(sender.id, total);
  const paths: string[] = [];
  let rows;
  try {
    for (const file of prepared) paths.push(await placeUpload(ctx.config, "files", file.ext, file.path));
    rows = await storeFiles(
      ctx.db,
      ctx.clock,
      sender.id,
      receiverId,
      prepared.map((file, i) => ({
        content: file.name,
        messageType: file.messageType,
        fileName: file.name,
        filePath: paths[i]!,
        fileSize: file.size,
        fileMime: file.mime,
        groupId,
        durationMs: file.durationMs ?? null,
      })),
      (id) => deliveredNow(ctx, id),
    );
  } catch (error) {
    // No message points at these files, so nobody could ever fetch them.
    ctx.uploads.ledger.release(sender.id, total);
    await Promise.all(paths.map((path) => removeUpload(ctx.config, path)));
    throw asStorageError(error);
  }
  ctx.uploads.ledger.commit(sender.id, total);
  for (const file of prepared) ctx.metrics.uploads[file.messageType].inc();
  ctx.metrics.messagesStored.inc(rows.length);
  return announceStored(ctx, sender, rows);
}
