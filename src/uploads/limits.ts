// Upload sizes from API.md, exact to the byte, and the one check that applies them.
import { AppError, validationError } from "../http/errors.ts";
import { displayName } from "./names.ts";

export const MAX_FILE_BYTES = 10 * 1024 * 1024;
export const MAX_AVATAR_BYTES = 5 * 1024 * 1024;
export const MAX_FILES_PER_UPLOAD = 10;
/** Ten files at the limit plus multipart overhead; Bun answers 413 past this. */
export const MAX_REQUEST_BYTES = MAX_FILES_PER_UPLOAD * MAX_FILE_BYTES + 1024 * 1024;

/** Empty is a 400 (nothing to send); past `max` is the contract's 413. */
export function assertSize(file: File, max: number, field: string): void {
  const name = displayName(file.name);
  if (file.size === 0) throw validationError({ [field]: `"${name}" is empty` }, "An empty file cannot be sent");
  if (file.size > max) {
    const mb = max / 1024 / 1024;
    throw new AppError(413, "too_large", `"${name}" is larger than ${mb} MB (${max} bytes), the most one file may be`);
  }
}
