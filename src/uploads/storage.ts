// The uploads folder on disk: `${dataDir}/uploads/<folder>/<random>.<ext>`. Paths in the
// database and in URLs are relative to it ("files/3f9c….jpg").
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join, resolve, sep } from "node:path";
import { randomFileName } from "./names.ts";

export type UploadFolder = "files" | "avatars";

export const uploadsRoot = (dataDir: string): string => resolve(dataDir, "uploads");

/**
 * Only names this server makes: a known folder, hex, one extension. Anything else (dots,
 * backslashes, NUL, absolute paths, other folders) is not a stored file, whatever it decodes to.
 */
const STORED_PATH = /^(files|avatars)\/[0-9a-f]{32}\.[a-z0-9]{1,8}$/;

export const isStoredPath = (relPath: string): boolean => STORED_PATH.test(relPath);

/** Writes new bytes under a fresh random name; returns the relative path. */
export async function saveUpload(dataDir: string, folder: UploadFolder, ext: string, bytes: Uint8Array): Promise<string> {
  const relPath = `${folder}/${randomFileName(ext)}`;
  await mkdir(join(uploadsRoot(dataDir), folder), { recursive: true });
  // "wx": never overwrite, even on the (astronomically unlikely) name collision.
  await writeFile(join(uploadsRoot(dataDir), relPath), bytes, { flag: "wx", mode: 0o640 });
  return relPath;
}

/** The absolute file for a relative path, or null if it is not one of ours or would leave the folder. */
export function uploadFile(dataDir: string, relPath: string): string | null {
  if (!isStoredPath(relPath)) return null;
  const root = uploadsRoot(dataDir);
  const full = resolve(root, relPath);
  return full.startsWith(root + sep) ? full : null;
}

/** Removes a stored file; a missing one is already what we want. */
export async function removeUpload(dataDir: string, relPath: string | null | undefined): Promise<void> {
  if (!relPath) return;
  const full = uploadFile(dataDir, relPath);
  if (full) await rm(full, { force: true });
}
