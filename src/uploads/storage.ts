// The uploads folder on disk: `<uploads>/<folder>/<random>.<ext>`, where <uploads> is
// UPLOADS_DIR (a folder every instance shares) or `${dataDir}/uploads` (config.uploadsDir).
// Paths in the database and in URLs are relative to it ("files/3f9c….jpg"). Uploads arrive in
// this instance's own spool, `${dataDir}/uploads/.spool`, first: placing one is a rename on the
// same file system, or a copy and a rename when UPLOADS_DIR is elsewhere (a network mount); every
// byte written goes through an UploadDisk, so tests can make the disk "full".
import { copyFile, mkdir, open, rename, rm } from "node:fs/promises";
import { mkdirSync, rmSync } from "node:fs";
import { join, resolve, sep } from "node:path";
import { AppError } from "../http/errors.ts";
import { randomFileName } from "./names.ts";

export type UploadFolder = "files" | "avatars";

/** Where stored files live: the resolved UPLOADS_DIR, or DATA_DIR/uploads (src/config.ts). */
export interface UploadsPlace {
  uploadsDir: string;
}

/**
 * Where request bodies and cleaned images wait until their message is stored; never served.
 * Always in DATA_DIR, never in the shared folder: each instance empties its own at start-up,
 * which would otherwise throw away another instance's uploads in progress.
 */
export const spoolDir = (dataDir: string): string => join(resolve(dataDir, "uploads"), ".spool");

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

/** A node error's code ("EXDEV", "ENOENT"), or "". */
const codeOf = (error: unknown): string => (typeof error === "object" && error !== null && "code" in error ? String(error.code) : "");

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
export async function placeUpload(place: UploadsPlace, folder: UploadFolder, ext: string, from: string): Promise<string> {
  const relPath = `${folder}/${randomFileName(ext)}`;
  const target = join(place.uploadsDir, relPath);
  await mkdir(join(place.uploadsDir, folder), { recursive: true });
  try {
    // 128 random bits: a rename can never land on an existing name in practice.
    await rename(from, target);
  } catch (error) {
    if (codeOf(error) !== "EXDEV") throw error;
    // UPLOADS_DIR on another file system: copied under a name no URL can ask for (a dot, not
    // hex), then renamed there, so another instance never serves half a file.
    const partial = join(place.uploadsDir, folder, `.${randomFileName("part")}`);
    try {
      await copyFile(from, partial);
      await rename(partial, target);
    } catch (failed) {
      await rm(partial, { force: true });
      throw failed;
    }
    await rm(from, { force: true });
  }
  return relPath;
}

/** The absolute file for a relative path, or null if it is not one of ours or would leave the folder. */
export function uploadFile(place: UploadsPlace, relPath: string): string | null {
  if (!isStoredPath(relPath)) return null;
  const root = resolve(place.uploadsDir);
  const full = resolve(root, relPath);
  return full.startsWith(root + sep) ? full : null;
}

/** Removes a stored file; a missing one is already what we want. */
export async function removeUpload(place: UploadsPlace, relPath: string | null | undefined): Promise<void> {
  if (!relPath) return;
  const full = uploadFile(place, relPath);
  if (full) await rm(full, { force: true });
}

/** ENOSPC or a quota on the file system, or SQLite finding no room for the message row. */
export function isDiskFull(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  const code = codeOf(error);
  const message = error instanceof Error ? error.message : "";
  return ["ENOSPC", "EDQUOT", "SQLITE_FULL"].includes(code) || /no space left|disk.*full/i.test(message);
}

export const storageFull = () =>
  new AppError(507, "storage_full", "The server's storage is full, so the file was not saved. Please try again later.");

/** Turns a full disk into the contract's 507; anything else passes through unchanged. */
export function asStorageError(error: unknown): unknown {
  return isDiskFull(error) ? storageFull() : error;
}
