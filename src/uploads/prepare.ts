// Turns one received file into what is stored: the type decided by content, pictures cleaned of
// metadata through the decode queue (and written back to the spool), and a display name that
// cannot pose as a path. Nothing is placed under uploads/ here.
import type { AppContext } from "../context.ts";
import { AppError } from "../http/errors.ts";
import { detectFile, RASTER_TYPES, type ImageMime } from "./detect.ts";
import { cleanImage, refusalMessage } from "./images.ts";
import type { Received, SpooledFile } from "./receive.ts";
import { asStorageError, spoolPath, writeNew } from "./storage.ts";

export interface PreparedFile {
  /** The spool file to place: the upload itself, or its cleaned copy. */
  path: string;
  size: number;
  ext: string;
  mime: string;
  messageType: "image" | "file" | "voice";
  name: string;
  /** Voice messages only. */
  durationMs?: number;
}

/** A picture decoded in `ownerId`'s turn, re-encoded without metadata into a new spool file. */
export async function cleanSpooled(ctx: AppContext, ownerId: number, file: SpooledFile, mime: ImageMime, received: Received) {
  const cleaned = await ctx.uploads.decoder.run(String(ownerId), () => cleanImage(file.path, mime));
  if (!cleaned.ok) throw new AppError(415, "unsupported_type", refusalMessage(cleaned, file.name));
  const ext = RASTER_TYPES[cleaned.mime];
  const path = spoolPath(ctx.config.dataDir, ext);
  received.track(path);
  try {
    await writeNew(ctx.uploads.disk, path, cleaned.bytes);
  } catch (error) {
    throw asStorageError(error);
  }
  return { path, size: cleaned.bytes.byteLength, ext, mime: cleaned.mime };
}

export async function prepareChatFile(ctx: AppContext, ownerId: number, file: SpooledFile, received: Received): Promise<PreparedFile> {
  const found = await detectFile(file.path);
  switch (found.kind) {
    case "raster":
    case "convertible":
      return { ...(await cleanSpooled(ctx, ownerId, file, found.mime, received)), messageType: "image", name: file.name };
    case "uncleanable":
      // Its metadata (a photo's location) cannot be removed, so it is not passed on as a download either.
      throw new AppError(
        415,
        "unsupported_type",
        `"${file.name}" is a kind of picture whose metadata (such as a location) cannot be removed here, so it was not sent. Send it as JPEG, PNG, GIF, WebP, TIFF or AVIF.`,
      );
    case "other":
      return { path: file.path, size: file.size, ext: found.ext, mime: found.mime, messageType: "file", name: file.name };
  }
}
