// What a file is, from its first bytes (never its name or the browser's type).
import { fileTypeFromBuffer } from "file-type";

export const RASTER_TYPES = {
  "image/jpeg": "jpg",
  "image/png": "png",
  "image/gif": "gif",
  "image/webp": "webp",
} as const;

export const OCTET_STREAM = "application/octet-stream";

export type RasterMime = keyof typeof RASTER_TYPES;

export const isRasterMime = (mime: string): mime is RasterMime => Object.hasOwn(RASTER_TYPES, mime);

/** Mime type by extension of a stored name: only our own raster names count as images. */
export function rasterMimeOfExt(ext: string): RasterMime | null {
  for (const [mime, known] of Object.entries(RASTER_TYPES)) if (known === ext && isRasterMime(mime)) return mime;
  return null;
}

export type Detected = { kind: "raster"; mime: RasterMime } | { kind: "other"; ext: string; mime: string };

/** Formats a browser might render or run if ever served by extension; stored as .bin instead. */
const RISKY_EXTS = new Set(["html", "htm", "xhtml", "xml", "svg", "js", "mjs", "swf", "pdf"]);

export async function detect(bytes: Uint8Array): Promise<Detected> {
  const found = await fileTypeFromBuffer(bytes);
  if (found && isRasterMime(found.mime)) return { kind: "raster", mime: found.mime };
  const known = found && /^[a-z0-9]{1,8}$/.test(found.ext) && !RISKY_EXTS.has(found.ext);
  return known ? { kind: "other", ext: found.ext, mime: found.mime } : { kind: "other", ext: "bin", mime: OCTET_STREAM };
}
