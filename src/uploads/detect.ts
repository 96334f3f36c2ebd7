// What a file is, from its first bytes (never its name or the browser's type).
import { fileTypeFromBuffer, fileTypeFromFile, type FileTypeResult } from "file-type";

/** What we store and serve as pictures: every browser shows these. */
export const RASTER_TYPES = {
  "image/jpeg": "jpg",
  "image/png": "png",
  "image/gif": "gif",
  "image/webp": "webp",
} as const;

/** Formats sharp decodes here that browsers do not all show: re-encoded into a raster type. */
export const CONVERTIBLE_TYPES = ["image/tiff", "image/avif", "image/heic", "image/heif", "image/apng"] as const;

export const OCTET_STREAM = "application/octet-stream";

export type RasterMime = keyof typeof RASTER_TYPES;
export type ConvertibleMime = (typeof CONVERTIBLE_TYPES)[number];
export type ImageMime = RasterMime | ConvertibleMime;

export const isRasterMime = (mime: string): mime is RasterMime => Object.hasOwn(RASTER_TYPES, mime);
const isConvertible = (mime: string): mime is ConvertibleMime => (CONVERTIBLE_TYPES as readonly string[]).includes(mime);

/** Mime type by extension of a stored name: only our own raster names count as images. */
export function rasterMimeOfExt(ext: string): RasterMime | null {
  for (const [mime, known] of Object.entries(RASTER_TYPES)) if (known === ext && isRasterMime(mime)) return mime;
  return null;
}

export type Detected =
  | { kind: "raster"; mime: RasterMime }
  | { kind: "convertible"; mime: ConvertibleMime }
  /** Any other picture format (BMP, PSD, camera raw, JPEG XL...): it may carry a location we cannot remove. */
  | { kind: "uncleanable"; mime: string }
  | { kind: "other"; ext: string; mime: string };

/** Formats a browser might render or run if ever served by extension; stored as .bin instead. */
const RISKY_EXTS = new Set(["html", "htm", "xhtml", "xml", "svg", "js", "mjs", "swf", "pdf"]);

function classify(found: FileTypeResult | undefined): Detected {
  if (found && isRasterMime(found.mime)) return { kind: "raster", mime: found.mime };
  if (found && isConvertible(found.mime)) return { kind: "convertible", mime: found.mime };
  if (found?.mime.startsWith("image/")) return { kind: "uncleanable", mime: found.mime };
  const known = found && /^[a-z0-9]{1,8}$/.test(found.ext) && !RISKY_EXTS.has(found.ext);
  return known ? { kind: "other", ext: found.ext, mime: found.mime } : { kind: "other", ext: "bin", mime: OCTET_STREAM };
}

export const detect = async (bytes: Uint8Array): Promise<Detected> => classify(await fileTypeFromBuffer(bytes));

/** From a spooled file, reading only the bytes the signatures need. */
export const detectFile = async (path: string): Promise<Detected> => classify(await fileTypeFromFile(path));
