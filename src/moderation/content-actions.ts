// Removing content: a message or file (both sides then show "Removed by a moderator") and an
// avatar. The text and file fields are cleared and the file is deleted from disk; the row stays,
// so the conversation keeps its shape and reports keep pointing at it.
import { eq } from "drizzle-orm";
import { messages, users } from "../../db/schema.ts";
import type { AppContext } from "../context.ts";
import { AppError, notFound } from "../http/errors.ts";
import { assertMayActOn, checkActor, requireReason, requireTarget, type Actor } from "./actor.ts";
import { writeAudit } from "./audit.ts";
import { deleteUpload } from "./files.ts";
import { assertAbout, closeReports, loadReports, reportIdList } from "./report-closing.ts";
import { forgetUser } from "../users/cache.ts";
import { transaction } from "../storage/index.ts";

type Ctx = Pick<AppContext, "db" | "hub" | "config">;

export function removeMessage(ctx: Ctx, actor: Actor, messageId: number, reason: string, reportIds?: number[]): void {
  const who = checkActor(ctx.db, actor);
  const why = requireReason(reason);
  const message = Number.isSafeInteger(messageId) ? ctx.db.select().from(messages).where(eq(messages.id, messageId)).get() : undefined;
  if (!message) throw notFound("Message not found");
  if (message.removedAt !== null) throw new AppError(400, "validation", "This message was already removed");
  const sender = requireTarget(ctx.db, message.senderId);
  assertMayActOn(who, sender);
  const ids = reportIdList(reportIds);
  assertAbout(loadReports(ctx.db, ids), sender.id);
  const now = Date.now();
  transaction(ctx.db, (tx) => {
    tx
      .update(messages)
      .set({ removedAt: now, content: "", fileName: null, filePath: null, fileSize: null, fileMime: null })
      .where(eq(messages.id, message.id))
      .run();
    closeReports(tx, ids, "actioned", who.id, now);
    writeAudit(tx, {
      at: now,
      actorId: who.id,
      action: "remove_message",
      targetUserId: sender.id,
      reportIds: ids,
      reason: why,
      detail: { message_id: message.id, receiver_id: message.receiverId, message_type: message.messageType, had_file: message.filePath !== null },
    });
  });
  deleteUpload(ctx.config.dataDir, message.filePath);
  for (const userId of [message.senderId, message.receiverId]) ctx.hub.sendToUser(userId, "message_removed", { messageId: message.id });
}

export function removeAvatar(ctx: Ctx, actor: Actor, userId: number, reason: string, reportIds?: number[]): void {
  const who = checkActor(ctx.db, actor);
  const why = requireReason(reason);
  const target = requireTarget(ctx.db, userId);
  assertMayActOn(who, target);
  if (target.avatarPath === null) throw new AppError(400, "validation", "This user has no avatar");
  const ids = reportIdList(reportIds);
  assertAbout(loadReports(ctx.db, ids), target.id);
  const now = Date.now();
  transaction(ctx.db, (tx) => {
    tx.update(users).set({ avatarPath: null }).where(eq(users.id, target.id)).run();
    forgetUser(tx, target.id);
    closeReports(tx, ids, "actioned", who.id, now);
    writeAudit(tx, { at: now, actorId: who.id, action: "remove_avatar", targetUserId: target.id, reportIds: ids, reason: why });
  });
  deleteUpload(ctx.config.dataDir, target.avatarPath);
}
