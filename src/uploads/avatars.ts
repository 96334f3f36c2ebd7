// HTTP: replacing and removing the signed-in user's avatar. Only real raster images are kept,
// re-encoded without metadata, under a new random name each time.
import { eq } from "drizzle-orm";
import { Elysia } from "elysia";
import { users } from "../../db/schema.ts";
import { authGuard } from "../auth/guard.ts";
import type { AppContext } from "../context.ts";
import type { Db } from "../db.ts";
import { AppError, validationError } from "../http/errors.ts";
import { avatarUrl } from "../users/service.ts";
import { detect, RASTER_TYPES } from "./detect.ts";
import { stripMetadata } from "./images.ts";
import { assertSize, MAX_AVATAR_BYTES } from "./limits.ts";
import { filesOf, readForm } from "./multipart.ts";
import { assertUploadBudget, takeUploads } from "./send.ts";
import { removeUpload, saveUpload } from "./storage.ts";

const unsupported = () =>
  new AppError(415, "unsupported_type", "An avatar must be a JPEG, PNG, GIF or WebP image (jpeg, jpg, png, gif, webp)");

/** Sets the new path and answers the old one, in one transaction so two uploads cannot both keep theirs. */
function swapAvatar(db: Db, userId: number, path: string | null): string | null {
  return db.transaction((tx) => {
    const old = tx.select({ path: users.avatarPath }).from(users).where(eq(users.id, userId)).get()?.path ?? null;
    tx.update(users).set({ avatarPath: path }).where(eq(users.id, userId)).run();
    return old;
  });
}

async function cleanAvatar(file: File): Promise<{ bytes: Uint8Array; ext: string }> {
  const original = new Uint8Array(await file.arrayBuffer());
  const found = await detect(original);
  if (found.kind !== "raster") throw unsupported();
  const bytes = await stripMetadata(original, found.mime);
  if (!bytes) throw unsupported();
  return { bytes, ext: RASTER_TYPES[found.mime] };
}

export function avatarRoutes(ctx: AppContext) {
  return new Elysia()
    .use(authGuard(ctx))
    .post(
      "/api/users/avatar/upload",
      async ({ request, user }) => {
        assertUploadBudget(ctx, user.id);
        const form = await readForm(request);
        const [file] = filesOf(form, "avatar");
        if (!file) throw validationError({ avatar: "Choose an image for your avatar" });
        assertSize(file, MAX_AVATAR_BYTES, "avatar");
        takeUploads(ctx, user.id, 1);
        const { bytes, ext } = await cleanAvatar(file);
        const path = await saveUpload(ctx.config.dataDir, "avatars", ext, bytes);
        const old = swapAvatar(ctx.db, user.id, path);
        await removeUpload(ctx.config.dataDir, old);
        return { avatar_url: avatarUrl(path) };
      },
      { parse: "none" },
    )
    .delete(
      "/api/users/avatar",
      async ({ user }) => {
        const old = swapAvatar(ctx.db, user.id, null);
        await removeUpload(ctx.config.dataDir, old);
        return { success: true };
      },
      { parse: "none" },
    );
}
