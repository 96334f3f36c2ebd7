// Deleting files a moderator or the retention sweep removes. Synchronous, so that when an action
// returns the file is gone; paths come from our own rows and are checked again anyway.
import { rmSync } from "node:fs";
import { join } from "node:path";
import { uploadFile } from "../uploads/storage.ts";

/** A chat file or avatar under DATA_DIR/uploads. */
export function deleteUpload(dataDir: string, relPath: string | null): void {
  const full = relPath ? uploadFile(dataDir, relPath) : null;
  if (full) rmSync(full, { force: true });
}

/** A report's still under DATA_DIR/evidence (the name src/reports/evidence.ts makes). */
export function deleteStill(dataDir: string, relPath: string | null): void {
  if (relPath && /^evidence\/[0-9a-f]{32}\.jpg$/.test(relPath)) rmSync(join(dataDir, relPath), { force: true });
}
