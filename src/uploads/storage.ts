// The uploads folder on disk: `${dataDir}/uploads/<folder>/<random>.<ext>`. Paths in the
// database and in URLs are relative to it ("files/3f9c….jpg"). Uploads arrive in
// `uploads/.spool` first (same file system, so placing one is a rename) and every byte written
// goes through an UploadDisk, so tests can make the disk "full".
import { mkdir, open, rename, rm } from "node:fs/promises";
import { mkdirSync, rmSync } from "node:fs";
import { join, resolve, sep } from "node:path";
import { AppError } from "../http/errors.ts";
import { randomFileName } from "./names.ts";

export type UploadFolder = "files" | "avatars";

export const uploadsRoot = (dataDir: string): string => resolve(dataDir, "uploads");

/** Where request bodies and cleaned images wait until their message is stored; never served. */
export const spoolDir = (dataDir: string): string => join(uploadsRoot(dataDir), ".spool");

/**
 * Only names this server makes: a known folder, hex, one extension. Anything else (dots,
 * backslashes, NUL, absolute paths, other folders, the spool) is not a stored file.
 */
const STORED_PATH = /^(files|avatars)\/[0-9a-f]{32}\.[a-z0-9]{1,8}$/;

export const isStoredPath = (relPath: string): boolean => STORED_PATH.test(relPath);

export interface DiskWriter {
  write(chunk: Uint8Array): Promise<void>;
  close(): Promise<void>;
}

/** Creating and writing files; the one seam through which a full disk reaches the code. */
export interface UploadDisk {
  /** A new file at `path` ("wx": never overwrites). */
  create(path: string): Promise<DiskWriter>;
}

export const realDisk: UploadDisk = {
  async create(path) {
    const handle = await open(path, "wx", 0o640);
    return {
      async write(chunk) {
        // A write may take fewer bytes than offered; loop until all of the chunk is on disk.
        for (let at = 0; at < chunk.byteLength; ) at += (await handle.write(chunk, at)).bytesWritten;
      },
      close: () => handle.close(),
    };
  },
};

/** Leftovers of a crash are never referenced by a message: the spool starts empty. */
export function resetSpool(dataDir: string): void {
  rmSync(spoolDir(dataDir), { recursive: true, force: true });
  mkdirSync(spoolDir(dataDir), { recursive: true, mode: 0o700 });
}

/** A fresh path in the spool. */
export const spoolPath = (dataDir: string, ext = "part"): string => join(spoolDir(dataDir), randomFileName(ext));

/** Writes bytes to a new file through the disk, removing it if the write fails. */
export async function writeNew(disk: UploadDisk, path: string, bytes: Uint8Array): Promise<void> {
  const writer = await disk.create(path);
  try {
    await writer.write(bytes);
  } catch (error) {
    await writer.close().catch(() => undefined);
    await rm(path, { force: true });
    throw error;
  }
  await writer.close();
}

/** Moves a finished spool file under a fresh random name in `folder`; returns the relative path. */
export async function placeUpload(dataDir: string, folder: UploadFolder, ext: string, from: string): Promise<string> {
  const relPath = `${folder}/${randomFileName(ext)}`;
  await mkdir(join(uploadsRoot(dataDir), folder), { recursive: true });
  // 128 random bits: a rename can never land on an existing name in practice.
  await rename(from, join(uploadsRoot(dataDir), relPath));
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

/** ENOSPC or a quota on the file system, or SQLite finding no room for the message row. */
export function isDiskFull(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  const code = "code" in error ? String(error.code) : "";
  const message = error instanceof Error ? error.message : "";
  return ["ENOSPC", "EDQUOT", "SQLITE_FULL"].includes(code) || /no space left|disk.*full/i.test(message);
}

export const storageFull = () =>
  new AppError(507, "storage_full", "The server's storage is full, so the file was not saved. Please try again later.");

/** Turns a full disk into the contract's 507; anything else passes through unchanged. */
export function asStorageError(error: unknown): unknown {
  return isDiskFull(error) ? storageFull() : error;
}
