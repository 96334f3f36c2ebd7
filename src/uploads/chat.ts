// HTTP: sending one file or a group of files in a chat.
import { Type as t } from "@sinclair/typebox";
import { Elysia } from "elysia";
import { randomUUID } from "node:crypto";
import type { UserRow } from "../storage/tables.ts";
import { answers } from "../api-docs/answers.ts";
import { operation } from "../api-docs/operation.ts";
import { authGuard } from "../auth/guard.ts";
import type { AppContext } from "../context.ts";
import { validationError } from "../http/errors.ts";
import { MAX_FILE_BYTES, MAX_FILES_PER_UPLOAD } from "./limits.ts";
import { idField } from "./multipart.ts";
import { receiveUpload, type ReceiveRules } from "./receive.ts";
import { assertUploadBudget, sendFiles } from "./send.ts";
import { MAX_VOICE_BYTES, prepareVoiceFile, statedDuration } from "./voice-message.ts";

const single: ReceiveRules = {
  fileField: "file",
  maxFileBytes: MAX_FILE_BYTES,
  maxFiles: 1,
  tooMany: () => validationError({ file: "Send several files through upload-multiple" }),
};

const several: ReceiveRules = {
  fileField: "files",
  maxFileBytes: MAX_FILE_BYTES,
  maxFiles: MAX_FILES_PER_UPLOAD,
  tooMany: () =>
    validationError(
      { files: `At most ${MAX_FILES_PER_UPLOAD} files can be sent at once; you chose more` },
      `Too many files: at most ${MAX_FILES_PER_UPLOAD} can be sent at once`,
    ),
};

/** Budget and quota first (before a byte is read), then the body, then the files; the spool is always emptied. */
async function upload(ctx: AppContext, user: UserRow, request: Request, rules: ReceiveRules, groupId: string | null) {
  await assertUploadBudget(ctx, user.id);
  await ctx.uploads.ledger.assertRoom(user.id);
  const received = await receiveUpload(ctx, user.id, request, rules);
  try {
    const receiverId = idField(received.fields, "receiverId");
    const kind = received.fields.get("kind") ?? "file";
    if (kind !== "file" && (kind !== "voice" || rules.maxFiles !== 1)) {
      throw validationError({ kind: rules.maxFiles === 1 ? 'kind is "file" (the default) or "voice"' : "Voice messages go through /api/messages/upload" });
    }
    if (received.files.length === 0) throw validationError({ [rules.fileField]: rules.maxFiles === 1 ? "Choose a file to send" : "Choose at least one file to send" });
    if (kind === "voice") {
      const stated = statedDuration(received.fields.get("duration_ms"));
      return await sendFiles(ctx, user, receiverId, received, rules.fileField, groupId, (file) => prepareVoiceFile(file, stated));
    }
    return await sendFiles(ctx, user, receiverId, received, rules.fileField, groupId);
  } finally {
    await received.dispose();
  }
}

const receiverId = t.String({ pattern: "^[1-9][0-9]{0,15}$", description: "The other person's id" });
const file = t.String({ format: "binary", description: `1 byte to ${MAX_FILE_BYTES} bytes` });
const uploadErrors = [400, 403, 404, 413, 415, 429];

export function chatUploadRoutes(ctx: AppContext) {
  return new Elysia()
    .use(authGuard(ctx))
    .post(
      "/api/messages/upload",
      async ({ request, user, set }) => {
        const [message] = await upload(ctx, user, request, single, null);
        set.status = 201;
        return { message };
      },
      {
        parse: "none",
        detail: operation({
          tag: "Messages",
          summary: "Send one file in a chat",
          description: "Pictures are re-encoded without metadata. With kind=voice and duration_ms, a voice message. Both sides hear it like a text message (message_sent, new_message).",
          multipart: t.Object({
            file,
            receiverId,
            kind: t.Optional(t.Union([t.Literal("file"), t.Literal("voice")], { description: `voice: Opus in WebM or Ogg (by content), at most 5 minutes and ${MAX_VOICE_BYTES} bytes; stored as message_type voice` })),
            duration_ms: t.Optional(t.String({ pattern: "^[0-9]{1,9}$", description: "kind=voice: the recording's length in milliseconds, checked against the container's" })),
          }),
          ok: { status: 201, description: "The stored message", schema: answers.message },
          errors: uploadErrors,
        }),
      },
    )
    .post(
      "/api/messages/upload-multiple",
      async ({ request, user, set }) => {
        const messages = await upload(ctx, user, request, several, randomUUID());
        set.status = 201;
        return { messages };
      },
      {
        parse: "none",
        detail: operation({
          tag: "Messages",
          summary: `Send up to ${MAX_FILES_PER_UPLOAD} files at once`,
          description: "Repeat the files field; the messages share one group_id.",
          multipart: t.Object({ files: t.Array(file, { maxItems: MAX_FILES_PER_UPLOAD }), receiverId }),
          ok: { status: 201, description: "The stored messages", schema: answers.messages },
          errors: uploadErrors,
        }),
      },
    );
}
