// Upload sizes from API.md, exact to the byte, and the checks that apply them.
import { AppError, validationError } from "../http/errors.ts";

export const MAX_FILE_BYTES = 10 * 1024 * 1024;
export const MAX_AVATAR_BYTES = 5 * 1024 * 1024;
export const MAX_FILES_PER_UPLOAD = 10;
/** Ten files at the limit plus multipart overhead; Bun answers 413 past this. */
export const MAX_REQUEST_BYTES = MAX_FILES_PER_UPLOAD * MAX_FILE_BYTES + 1024 * 1024;

/** The contract's 413 for one file past `max`, naming it. */
export function tooLarge(name: string, max: number): AppError {
  const mb = max / 1024 / 1024;
  return new AppError(413, "too_large", `"${name}" is larger than ${mb} MB (${max} bytes), the most one file may be`);
}

/** Empty is a 400 (nothing to send); past `max` is the contract's 413. `name` is already cleaned. */
export function assertSize(file: { name: string; size: number }, max: number, field: string): void {
  if (file.size === 0) throw validationError({ [field]: `"${file.name}" is empty` }, "An empty file cannot be sent");
  if (file.size > max) throw tooLarge(file.name, max);
}
