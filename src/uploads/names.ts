// Names on disk are ours and random; the name a person gave a file is kept only for display.
import { randomBytes } from "node:crypto";

export const MAX_DISPLAY_NAME = 255;

/**
 * Separators would let a name pose as a path; control characters (and the bidi controls that
 * can make "gpj.exe" read as "exe.jpg") could spoof what the other person sees.
 */
const UNSAFE = /[\/\\\p{Cc}\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;

export function displayName(raw: string | undefined, fallback = "file"): string {
  const cleaned = (raw ?? "").replace(UNSAFE, "").trim();
  return Array.from(cleaned).slice(0, MAX_DISPLAY_NAME).join("") || fallback;
}

/** 128 random bits as hex: unguessable, so a path cannot be found by trying. */
export const randomFileName = (ext: string): string => `${randomBytes(16).toString("hex")}.${ext}`;
