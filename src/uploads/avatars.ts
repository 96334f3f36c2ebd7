// HTTP: replacing and removing the signed-in user's avatar. Only real raster images are kept,
// re-encoded without metadata (animations keep their frames), under a new random name each time.
import { eq } from "drizzle-orm";
import { Type as t } from "@sinclair/typebox";
import { Elysia } from "elysia";
import { users } from "../storage/tables.ts";
import { answers } from "../api-docs/answers.ts";
import { operation } from "../api-docs/operation.ts";
import { authGuard } from "../auth/guard.ts";
import type { AppContext } from "../context.ts";
import { transaction, type Db } from "../storage/index.ts";
import { AppError, validationError } from "../http/errors.ts";
import { avatarUrl } from "../users/service.ts";
import { detectFile } from "./detect.ts";
import { assertSize, MAX_AVATAR_BYTES } from "./limits.ts";
import { cleanSpooled } from "./prepare.ts";
import { receiveUpload, type ReceiveRules } from "./receive.ts";
import { assertUploadBudget, takeUploads } from "./send.ts";
import { asStorageError, placeUpload, removeUpload } from "./storage.ts";
import { forgetUser } from "../users/cache.ts";

const unsupported = () =>
  new AppError(415, "unsupported_type", "An avatar must be a JPEG, PNG, GIF or WebP image (jpeg, jpg, png, gif, webp)");

const rules: ReceiveRules = {
  fileField: "avatar",
  maxFileBytes: MAX_AVATAR_BYTES,
  maxFiles: 1,
  tooMany: () => validationError({ avatar: "Choose one image for your avatar" }),
};

/** Sets the new path and answers the old one, in one transaction so two uploads cannot both keep theirs. */
async function swapAvatar(db: Db, userId: number, path: string | null): Promise<string | null> {
  const old = await transaction(db, async (tx) => {
    const [row] = await tx.select({ path: users.avatarPath }).from(users).where(eq(users.id, userId)).limit(1);
    await tx.update(users).set({ avatarPath: path }).where(eq(users.id, userId));
    return row?.path ?? null;
  });
  // After the commit: a read in between must not cache the row as it was.
  forgetUser(db, userId);
  return old;
}

export function avatarRoutes(ctx: AppContext) {
  return new Elysia()
    .use(authGuard(ctx))
    .post(
      "/api/users/avatar/upload",
      async ({ request, user }) => {
        await assertUploadBudget(ctx, user.id);
        const received = await receiveUpload(ctx, user.id, request, rules);
        try {
          const [file] = received.files;
          if (!file) throw validationError({ avatar: "Choose an image for your avatar" });
          assertSize(file, MAX_AVATAR_BYTES, "avatar");
          await takeUploads(ctx, user.id, 1);
          const found = await detectFile(file.path);
          if (found.kind !== "raster") throw unsupported();
          const cleaned = await cleanSpooled(ctx, user.id, file, found.mime, received);
          const path = await placeUpload(ctx.config, "avatars", cleaned.ext, cleaned.path).catch((error) => {
            throw asStorageError(error);
          });
          const old = await swapAvatar(ctx.db, user.id, path);
          await removeUpload(ctx.config, old);
          ctx.metrics.uploads.avatar.inc();
          return { avatar_url: avatarUrl(path) };
        } finally {
          await received.dispose();
        }
      },
      {
        parse: "none",
        detail: operation({
          tag: "Users",
          summary: "Replace my avatar",
          description: "JPEG, PNG, GIF or WebP by content, re-encoded without metadata; the old file is deleted.",
          multipart: t.Object({ avatar: t.String({ format: "binary", description: `At most ${MAX_AVATAR_BYTES} bytes` }) }),
          ok: { description: "The new address", schema: answers.avatar },
          errors: [400, 413, 415, 429],
        }),
      },
    )
    .delete(
      "/api/users/avatar",
      async ({ user }) => {
        const old = await swapAvatar(ctx.db, user.id, null);
        await removeUpload(ctx.config, old);
        return { success: true };
      },
      {
        parse: "none",
        detail: operation({ tag: "Users", summary: "Remove my avatar", description: "Deletes the file.", ok: { description: "Removed", schema: answers.success } }),
      },
    );
}
