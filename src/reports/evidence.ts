// Evidence captured when a report is made, so that nobody can remove it later: the still of a
// call or roulette partner's video (checked by content, re-encoded as JPEG without metadata and
// kept under <root>/evidence, never served under /uploads), and text transcripts. The root is
// UPLOADS_DIR when it is set (the folder every instance shares, so a moderator's page served by
// any instance finds the still; /uploads serves only files/ and avatars/, uploads/storage.ts), else
// DATA_DIR as before.
import { existsSync, rmSync } from "node:fs";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { and, desc, eq } from "drizzle-orm";
import sharp from "sharp";
import { messages } from "../storage/tables.ts";
import type { Db } from "../storage/index.ts";
import { AppError, validationError } from "../http/errors.ts";
import type { Session } from "../roulette/sessions.ts";
import { iso, isoOrNull } from "../time.ts";
import { detect } from "../uploads/detect.ts";
import { stripMetadata } from "../uploads/images.ts";
import { randomFileName } from "../uploads/names.ts";
import { TRANSCRIPT_MESSAGES } from "./model.ts";

/** A canvas still is a few hundred kilobytes; this leaves room for a PNG one. */
export const MAX_EVIDENCE_BYTES = 2 * 1024 * 1024;
/** Far above a 640 px still; keeps one decode around 32 MB. */
export const MAX_EVIDENCE_PIXELS = 8_000_000;
const LONGEST_SIDE = 1280;

const notAnImage = () =>
  new AppError(415, "unsupported_type", "The evidence must be a JPEG, PNG, GIF or WebP image (a still of the video)");

export function assertStillSize(file: File): void {
  if (file.size === 0) throw validationError({ evidence: "The still is empty" });
  if (file.size > MAX_EVIDENCE_BYTES) {
    throw new AppError(413, "too_large", `The still is larger than ${MAX_EVIDENCE_BYTES / 1024 / 1024} MB (${MAX_EVIDENCE_BYTES} bytes)`);
  }
}

/** JPEG bytes with no EXIF, XMP, ICC or comment, at most LONGEST_SIDE px; 415 if not a real image. */
export async function cleanStill(file: File): Promise<Uint8Array> {
  const original = new Uint8Array(await file.arrayBuffer());
  const found = await detect(original);
  if (found.kind !== "raster") throw notAnImage();
  const { width = 0, height = 0 } = await sharp(original)
    .metadata()
    .catch(() => ({ width: 0, height: 0 }));
  if (width * height > MAX_EVIDENCE_PIXELS) {
    throw new AppError(415, "unsupported_type", `The still is larger than ${MAX_EVIDENCE_PIXELS / 1_000_000} megapixels`);
  }
  // The uploads' cleaner proves it decodes and drops metadata; then one format for moderators.
  const cleaned = await stripMetadata(original, found.mime);
  if (!cleaned) throw notAnImage();
  try {
    return await sharp(cleaned, { failOn: "error", limitInputPixels: MAX_EVIDENCE_PIXELS })
      .resize({ width: LONGEST_SIDE, height: LONGEST_SIDE, fit: "inside", withoutEnlargement: true })
      .jpeg({ quality: 85 })
      .toBuffer();
  } catch {
    throw notAnImage();
  }
}

/** Where stills are kept: what evidenceRoot needs of the config. */
export interface StillsPlace {
  dataDir: string;
  uploadsDir: string;
}

/** The path a still's row holds; anything else in the column is never read or removed. */
export const STILL_PATH = /^evidence\/[0-9a-f]{32}\.jpg$/;

/** UPLOADS_DIR when set (shared by every instance), else DATA_DIR (one server, as before). */
export function evidenceRoot(place: StillsPlace): string {
  return place.uploadsDir === join(place.dataDir, "uploads") ? place.dataDir : place.uploadsDir;
}

/** Writes the still; returns its path relative to evidenceRoot ("evidence/<random>.jpg"). */
export async function saveStill(place: StillsPlace, bytes: Uint8Array): Promise<string> {
  const root = evidenceRoot(place);
  const folder = join(root, "evidence");
  await mkdir(folder, { recursive: true, mode: 0o700 });
  const relPath = `evidence/${randomFileName("jpg")}`;
  await writeFile(join(root, relPath), bytes, { flag: "wx", mode: 0o600 });
  return relPath;
}

/**
 * The still's file, or null: under evidenceRoot, or under DATA_DIR for a still written before
 * UPLOADS_DIR was set (the same relative path).
 */
export function stillFile(place: StillsPlace, relPath: string | null): string | null {
  if (!relPath || !STILL_PATH.test(relPath)) return null;
  for (const root of new Set([evidenceRoot(place), place.dataDir])) {
    const full = join(root, relPath);
    if (existsSync(full)) return full;
  }
  return null;
}

export async function removeStill(place: StillsPlace, relPath: string | null): Promise<void> {
  if (!relPath || !STILL_PATH.test(relPath)) return;
  for (const root of new Set([evidenceRoot(place), place.dataDir])) await rm(join(root, relPath), { force: true });
}

/** The same, synchronous (a moderator's action returns once the file is gone). */
export function removeStillNow(place: StillsPlace, relPath: string | null): void {
  if (!relPath || !STILL_PATH.test(relPath)) return;
  for (const root of new Set([evidenceRoot(place), place.dataDir])) rmSync(join(root, relPath), { force: true });
}

export interface TranscriptMessage {
  id: number;
  sender_id: number;
  receiver_id: number;
  content: string;
  message_type: string;
  file_name: string | null;
  file_path: string | null;
  created_at: string;
  /** The message it replied to. */
  reply_to_id: number | null;
  /** Edited and deleted as they were when the report was made: this copy is never rewritten. */
  edited_at: string | null;
  deleted_at: string | null;
  duration_ms: number | null;
}

/** The conversation's last messages, oldest first, plus the reported one if it is older. */
export async function chatTranscript(db: Db, a: number, b: number, messageId?: number): Promise<TranscriptMessage[]> {
  const [lo, hi] = a < b ? [a, b] : [b, a];
  const rows = (
    await db
      .select()
      .from(messages)
      .where(and(eq(messages.pairLo, lo), eq(messages.pairHi, hi)))
      .orderBy(desc(messages.createdAt), desc(messages.id))
      .limit(TRANSCRIPT_MESSAGES)
  ).reverse();
  if (messageId !== undefined && !rows.some((row) => row.id === messageId)) {
    const [reported] = await db.select().from(messages).where(eq(messages.id, messageId)).limit(1);
    if (reported) rows.unshift(reported);
  }
  return rows.map((row) => ({
    id: row.id,
    sender_id: row.senderId,
    receiver_id: row.receiverId,
    content: row.content,
    message_type: row.messageType,
    file_name: row.fileName,
    file_path: row.filePath,
    created_at: iso(row.createdAt),
    reply_to_id: row.replyToId,
    edited_at: isoOrNull(row.editedAt),
    deleted_at: isoOrNull(row.deletedAt),
    duration_ms: row.durationMs,
  }));
}

/** The roulette session's text chat as the server kept it. */
export const rouletteTranscript = (session: Session) =>
  session.lines.map((line) => ({ sender_id: line.senderId, text: line.text, at: iso(line.at) }));
