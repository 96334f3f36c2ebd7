// Deleting files a moderator or the retention sweep removes. Synchronous, so that when an action
// returns the file is gone; paths come from our own rows and are checked again anyway.
import { rmSync } from "node:fs";
import { removeStillNow, type StillsPlace } from "../reports/evidence.ts";
import { uploadFile, type UploadsPlace } from "../uploads/storage.ts";

/** A chat file or avatar under the uploads folder (UPLOADS_DIR, or DATA_DIR/uploads). */
export function deleteUpload(place: UploadsPlace, relPath: string | null): void {
  const full = relPath ? uploadFile(place, relPath) : null;
  if (full) rmSync(full, { force: true });
}

/** A report's still, wherever src/reports/evidence.ts keeps it (UPLOADS_DIR/evidence or DATA_DIR/evidence). */
export function deleteStill(place: StillsPlace, relPath: string | null): void {
  removeStillNow(place, relPath);
}
