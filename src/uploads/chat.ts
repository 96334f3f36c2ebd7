// HTTP: sending one file or a group of files in a chat.
import { Elysia } from "elysia";
import { randomUUID } from "node:crypto";
import type { UserRow } from "../../db/schema.ts";
import { authGuard } from "../auth/guard.ts";
import type { AppContext } from "../context.ts";
import { validationError } from "../http/errors.ts";
import { MAX_FILE_BYTES, MAX_FILES_PER_UPLOAD } from "./limits.ts";
import { idField } from "./multipart.ts";
import { receiveUpload, type ReceiveRules } from "./receive.ts";
import { assertUploadBudget, sendFiles } from "./send.ts";

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
  assertUploadBudget(ctx, user.id);
  ctx.uploads.ledger.assertRoom(user.id);
  const received = await receiveUpload(ctx, user.id, request, rules);
  try {
    const receiverId = idField(received.fields, "receiverId");
    if (received.files.length === 0) throw validationError({ [rules.fileField]: rules.maxFiles === 1 ? "Choose a file to send" : "Choose at least one file to send" });
    return await sendFiles(ctx, user, receiverId, received, rules.fileField, groupId);
  } finally {
    await received.dispose();
  }
}

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
      { parse: "none" },
    )
    .post(
      "/api/messages/upload-multiple",
      async ({ request, user, set }) => {
        const messages = await upload(ctx, user, request, several, randomUUID());
        set.status = 201;
        return { messages };
      },
      { parse: "none" },
    );
}
