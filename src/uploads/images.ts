// Re-encodes raster images so that no EXIF, GPS, XMP or comment reaches the other person, with
// the camera's orientation applied to the pixels first (once the tag is gone it cannot be).
import sharp from "sharp";
import type { RasterMime } from "./detect.ts";

const JPEG_QUALITY = 90;
/**
 * A few kilobytes can declare a huge canvas: decoding is capped well below sharp's default
 * (268 MP), yet above the 108 MP of today's largest phone cameras.
 */
const MAX_PIXELS = 120_000_000;

// Each image is decoded once and never reused, so libvips' operation cache only holds memory.
sharp.cache(false);

/** One decode at a time: peak memory stays that of one large photo, however many upload at once. */
let queue: Promise<unknown> = Promise.resolve();
function oneAtATime<T>(job: () => Promise<T>): Promise<T> {
  const run = queue.then(job, job);
  queue = run.catch(() => undefined);
  return run;
}

/** Cleaned bytes, or null when the content does not decode as the image it claimed to be. */
export function stripMetadata(bytes: Uint8Array, mime: RasterMime): Promise<Uint8Array | null> {
  return oneAtATime(() => reencode(bytes, mime));
}

async function reencode(bytes: Uint8Array, mime: RasterMime): Promise<Uint8Array | null> {
  try {
    // failOn "error" refuses truncated or corrupt data instead of storing half an image.
    const options = { failOn: "error", limitInputPixels: MAX_PIXELS } as const;
    const input = () => sharp(bytes, { ...options, animated: true });
    const { pages = 1, format } = await input().metadata();
    if (format !== expectedFormat[mime]) return null;
    const animated = pages > 1;
    // Animated GIFs stay byte for byte: re-encoding would cost colours and timing.
    if (mime === "image/gif" && animated) return bytes;
    const image = animated ? input() : sharp(bytes, options).rotate();
    switch (mime) {
      case "image/jpeg":
        return await image.jpeg({ quality: JPEG_QUALITY }).toBuffer();
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
