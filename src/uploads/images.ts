// Re-encodes pictures so that no EXIF, GPS, XMP, IPTC or comment reaches the other person (sharp
// writes none unless asked), with the camera's orientation applied to the pixels first. The
// header is read before anything is decoded: a few bytes can declare a canvas that would take
// seconds and gigabytes, so size and frame count are checked first and sharp's own pixel limit
// backs that up.
import sharp, { type Metadata, type Sharp } from "sharp";
import { sharedDecodeQueue } from "./decode-queue.ts";
import { type ImageMime, type RasterMime } from "./detect.ts";

/** API.md "image size": 40 MP per frame covers every phone camera's default photo. */
export const MAX_FRAME_PIXELS = 40_000_000;
/** Frames of one animation (a 10-second GIF at 30 fps is 300). */
export const MAX_FRAMES = 1000;
/** All frames together: a 480x270 animation may have its 1000 frames, a 1000x1000 one 100. */
export const MAX_ANIMATION_PIXELS = 130_000_000;
/** A decode that runs this long is stopped, whatever the reason. */
const TIMEOUT_SECONDS = 30;
const QUALITY = 90;

// Each image is decoded once and never reused, so libvips' operation cache only holds memory.
sharp.cache(false);

export type Refusal =
  | { reason: "too_many_pixels"; width: number; height: number }
  | { reason: "too_many_frames"; frames: number }
  | { reason: "animation_too_large"; frames: number }
  | { reason: "unreadable" };

export type Cleaned = { ok: true; bytes: Uint8Array; mime: RasterMime } | ({ ok: false } & Refusal);

/** What libvips calls each format we accept. */
const FORMAT_OF: Record<ImageMime, string> = {
  "image/jpeg": "jpeg",
  "image/png": "png",
  "image/gif": "gif",
  "image/webp": "webp",
  "image/apng": "png",
  "image/tiff": "tiff",
  "image/avif": "heif",
  "image/heic": "heif",
  "image/heif": "heif",
};

const ANIMATED = new Set<ImageMime>(["image/gif", "image/webp"]);

/** Header checks; null when the picture may be decoded. */
function refusalOf(meta: Metadata, mime: ImageMime): Refusal | null {
  if (meta.format !== FORMAT_OF[mime] || !meta.width || !meta.height) return { reason: "unreadable" };
  const frames = ANIMATED.has(mime) ? (meta.pages ?? 1) : 1;
  const frameHeight = ANIMATED.has(mime) ? (meta.pageHeight ?? meta.height) : meta.height;
  if (meta.width * frameHeight > MAX_FRAME_PIXELS) return { reason: "too_many_pixels", width: meta.width, height: frameHeight };
  if (frames > MAX_FRAMES) return { reason: "too_many_frames", frames };
  if (meta.width * frameHeight * frames > MAX_ANIMATION_PIXELS) return { reason: "animation_too_large", frames };
  return null;
}

/** TIFF, AVIF and HEIC become JPEG (PNG when transparent): every browser shows them and they encode fast. */
function encode(image: Sharp, mime: ImageMime, hasAlpha: boolean): { image: Sharp; mime: RasterMime } {
  switch (mime) {
    case "image/jpeg":
      return { image: image.jpeg({ quality: QUALITY }), mime };
    case "image/png":
    case "image/apng":
      return { image: image.png(), mime: "image/png" };
    case "image/webp":
      return { image: image.webp({ quality: QUALITY }), mime };
    case "image/gif":
      return { image: image.gif(), mime };
    case "image/tiff":
    case "image/avif":
    case "image/heic":
    case "image/heif": {
      // 16-bit and CMYK scans become 8-bit sRGB, which JPEG and browsers expect.
      const srgb = image.toColourspace("srgb");
      return hasAlpha ? { image: srgb.png(), mime: "image/png" } : { image: srgb.jpeg({ quality: QUALITY }), mime: "image/jpeg" };
    }
  }
}

/**
 * The cleaned picture, or why it was refused. `input` is a file path or the bytes. Call through
 * a DecodeQueue: this holds up to one 40-megapixel frame in memory while it runs.
 */
export async function cleanImage(input: string | Uint8Array, mime: ImageMime): Promise<Cleaned> {
  try {
    // Reading the header decodes no pixels, so no limit is needed yet.
    const meta = await sharp(input, { animated: ANIMATED.has(mime), limitInputPixels: false }).metadata();
    const refusal = refusalOf(meta, mime);
    if (refusal) return { ok: false, ...refusal };
    const animated = ANIMATED.has(mime) && (meta.pages ?? 1) > 1;
    // failOn "error" refuses truncated or corrupt data instead of storing half an image; the
    // pixel limit covers all frames, as sharp counts an animation as one tall image.
    const options = { failOn: "error", limitInputPixels: MAX_ANIMATION_PIXELS, animated } as const;
    const source = animated ? sharp(input, options) : sharp(input, options).rotate();
    const { image, mime: out } = encode(source.timeout({ seconds: TIMEOUT_SECONDS }), mime, meta.hasAlpha === true);
    return { ok: true, bytes: await image.toBuffer(), mime: out };
  } catch {
    return { ok: false, reason: "unreadable" };
  }
}

/** The refusal in words, naming the file; every one is a 415. */
export function refusalMessage(refusal: Refusal, name: string): string {
  switch (refusal.reason) {
    case "too_many_pixels": {
      const mp = Math.round((refusal.width * refusal.height) / 1_000_000);
      return `"${name}" is ${refusal.width}x${refusal.height} pixels (${mp} megapixels); pictures may be at most ${MAX_FRAME_PIXELS / 1_000_000} megapixels, so it was not sent.`;
    }
    case "too_many_frames":
      return `"${name}" has ${refusal.frames} frames; an animation may have at most ${MAX_FRAMES}, so it was not sent.`;
    case "animation_too_large":
      return `"${name}" has ${refusal.frames} frames that together are more than ${MAX_ANIMATION_PIXELS / 1_000_000} megapixels, so it was not sent. Try a shorter or smaller animation.`;
    case "unreadable":
      return `"${name}" looks like a picture but could not be read, so its metadata (such as a location) could not be removed and it was not sent. Try another file.`;
  }
}

/** The cleaned bytes of a small picture, or null if it cannot be cleaned (report evidence). */
export async function stripMetadata(bytes: Uint8Array, mime: ImageMime): Promise<Uint8Array | null> {
  const cleaned = await sharedDecodeQueue.run("report-evidence", () => cleanImage(bytes, mime));
  return cleaned.ok ? cleaned.bytes : null;
}
