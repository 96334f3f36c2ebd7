// Re-encodes raster images so that no EXIF, GPS, XMP or comment reaches the other person, with
// the camera's orientation applied to the pixels first (once the tag is gone it cannot be).
import sharp from "sharp";
import type { RasterMime } from "./detect.ts";

const JPEG_QUALITY = 90;

/** Cleaned bytes, or null when the content does not decode as the image it claimed to be. */
export async function stripMetadata(bytes: Uint8Array, mime: RasterMime): Promise<Uint8Array | null> {
  try {
    // failOn "error" refuses truncated or corrupt data instead of storing half an image.
    const input = () => sharp(bytes, { animated: true, failOn: "error" });
    const { pages = 1, format } = await input().metadata();
    if (format !== expectedFormat[mime]) return null;
    const animated = pages > 1;
    // Animated GIFs stay byte for byte: re-encoding would cost colours and timing.
    if (mime === "image/gif" && animated) return bytes;
    const image = animated ? input() : sharp(bytes, { failOn: "error" }).rotate();
    switch (mime) {
      case "image/jpeg":
        return await image.jpeg({ quality: JPEG_QUALITY, mozjpeg: true }).toBuffer();
      case "image/png":
        return await image.png().toBuffer();
      case "image/webp":
        return await image.webp({ quality: JPEG_QUALITY }).toBuffer();
      case "image/gif":
        return await image.gif().toBuffer();
    }
  } catch {
    return null;
  }
}

const expectedFormat: Record<RasterMime, string> = {
  "image/jpeg": "jpeg",
  "image/png": "png",
  "image/gif": "gif",
  "image/webp": "webp",
};
