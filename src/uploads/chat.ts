// HTTP: sending one file or a group of files in a chat.
import { Elysia } from "elysia";
import { randomUUID } from "node:crypto";
import { authGuard } from "../auth/guard.ts";
import type { AppContext } from "../context.ts";
import { validationError } from "../http/errors.ts";
import { MAX_FILES_PER_UPLOAD } from "./limits.ts";
import { filesOf, idField, readForm } from "./multipart.ts";
import { assertUploadBudget, sendFiles } from "./send.ts";

export function chatUploadRoutes(ctx: AppContext) {
  return new Elysia()
    .use(authGuard(ctx))
    .post(
      "/api/messages/upload",
      async ({ request, user, set }) => {
        assertUploadBudget(ctx, user.id);
        const form = await readForm(request);
        const receiverId = idField(form, "receiverId");
        const files = filesOf(form, "file");
        if (files.length !== 1) {
          throw validationError({ file: files.length === 0 ? "Choose a file to send" : "Send several files through upload-multiple" });
        }
        const [message] = await sendFiles(ctx, user, receiverId, files, "file", null);
        set.status = 201;
        return { message };
      },
      { parse: "none" },
    )
    .post(
      "/api/messages/upload-multiple",
      async ({ request, user, set }) => {
        assertUploadBudget(ctx, user.id);
        const form = await readForm(request);
        const receiverId = idField(form, "receiverId");
        const files = filesOf(form, "files");
        if (files.length === 0) throw validationError({ files: "Choose at least one file to send" });
        if (files.length > MAX_FILES_PER_UPLOAD) {
          throw validationError(
            { files: `At most ${MAX_FILES_PER_UPLOAD} files can be sent at once; you chose ${files.length}` },
            `Too many files: at most ${MAX_FILES_PER_UPLOAD} can be sent at once`,
          );
        }
        const messages = await sendFiles(ctx, user, receiverId, files, "files", randomUUID());
        set.status = 201;
        return { messages };
      },
      { parse: "none" },
    );
}
