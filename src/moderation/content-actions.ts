// Removing content: a message or file (both sides then show "Removed by a moderator") and an
// avatar. The text and file fields are cleared and the file is deleted from disk; the row stays,
// so the conversation keeps its shape and reports keep pointing at it.
import { and, eq, isNull } from "drizzle-orm";
import { messages, users } from "../storage/tables.ts";
import type { AppContext } from "../context.ts";
import { AppError, notFound } from "../http/errors.ts";
import { assertMayActOn, checkActor, requireReason, requireTarget, type Actor } from "./actor.ts";
import { writeAudit } from "./audit.ts";
import { deleteUpload } from "./files.ts";
import { assertAbout, closeReports, loadReports, reportIdList } from "./report-closing.ts";
import { forgetUser } from "../users/cache.ts";
import { transaction } from "../storage/index.ts";

type Ctx = Pick<AppContext, "db" | "hub" | "config">;

export async function removeMessage(ctx: Ctx, actor: Actor, messageId: number, reason: string, reportIds?: number[]): Promise<void> {
  const who = await checkActor(ctx.db, actor);
  const why = requireReason(reason);
  const message = Number.isSafeInteger(messageId) ? (await ctx.db.select().from(messages).where(eq(messages.id, messageId)).limit(1))[0] : undefined;
  if (!message) throw notFound("Message not found");
  const removed = () => new AppError(400, "validation", "This message was already removed");
  if (message.removedAt !== null) throw removed();
  const sender = await requireTarget(ctx.db, message.senderId);
  assertMayActOn(who, sender);
  const ids = reportIdList(reportIds);
  assertAbout(await loadReports(ctx.db, ids), sender.id);
  const now = Date.now();
  await transaction(ctx.db, async (tx) => {
    // Not removed yet: another moderator may have removed it while this one was checked.
    const changed = await tx
      .update(messages)
      .set({ removedAt: now, content: "", fileName: null, filePath: null, fileSize: null, fileMime: null })
      .where(and(eq(messages.id, message.id), isNull(messages.removedAt)))
      .returning({ id: messages.id });
    if (changed.length === 0) throw removed();
    await closeReports(tx, ids, "actioned", who.id, now);
    await writeAudit(tx, {
      at: now,
      actorId: who.id,
      action: "remove_message",
      targetUserId: sender.id,
      reportIds: ids,
      reason: why,
      detail: { message_id: message.id, receiver_id: message.receiverId, message_type: message.messageType, had_file: message.filePath !== null },
    });
  });
  deleteUpload(ctx.config, message.filePath);
  for (const userId of [message.senderId, message.receiverId]) ctx.hub.sendToUser(userId, "message_removed", { messageId: message.id });
}

export async function removeAvatar(ctx: Ctx, actor: Actor, userId: number, reason: string, reportIds?: number[]): Promise<void> {
  const who = await checkActor(ctx.db, actor);
  const why = requireReason(reason);
  const target = await requireTarget(ctx.db, userId);
  assertMayActOn(who, target);
  const none = () => new AppError(400, "validation", "This user has no avatar");
  if (target.avatarPath === null) throw none();
  const ids = reportIdList(reportIds);
  assertAbout(await loadReports(ctx.db, ids), target.id);
  const now = Date.now();
  await transaction(ctx.db, async (tx) => {
    // Still the avatar checked: another moderator may have removed it (or its owner changed it)
    // meanwhile, and one removal is one audit row.
    const changed = await tx
      .update(users)
      .set({ avatarPath: null })
      .where(and(eq(users.id, target.id), eq(users.avatarPath, target.avatarPath!)))
      .returning({ id: users.id });
    if (changed.length === 0) throw none();
    await closeReports(tx, ids, "actioned", who.id, now);
    await writeAudit(tx, { at: now, actorId: who.id, action: "remove_avatar", targetUserId: target.id, reportIds: ids, reason: why });
  });
  // After the commit: a read in between must not cache the row as it was.
  forgetUser(ctx.db, target.id);
  deleteUpload(ctx.config, target.avatarPath);
}
