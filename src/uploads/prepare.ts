// Turns one uploaded chat file into what is stored: the type decided by content, images
// cleaned of metadata, and a display name that cannot pose as a path.
import { AppError } from "../http/errors.ts";
import { detect, RASTER_TYPES } from "./detect.ts";
import { stripMetadata } from "./images.ts";
import { displayName } from "./names.ts";

export interface PreparedFile {
  bytes: Uint8Array;
  ext: string;
  mime: string;
  messageType: "image" | "file";
  name: string;
}

export async function prepareChatFile(file: File): Promise<PreparedFile> {
  const original = new Uint8Array(await file.arrayBuffer());
  const name = displayName(file.name);
  const found = await detect(original);
  if (found.kind === "raster") {
    const cleaned = await stripMetadata(original, found.mime);
    if (cleaned) return { bytes: cleaned, ext: RASTER_TYPES[found.mime], mime: found.mime, messageType: "image", name };
    // Image magic bytes over data that does not decode: its metadata (a photo's location) cannot
    // be removed, so it is not stored at all rather than passed on as a download.
    throw new AppError(415, "unsupported_type", `"${name}" looks like an image but could not be read, so it was not sent. Try another file.`);
  }
  return { bytes: original, ext: found.ext, mime: found.mime, messageType: "file", name };
}
