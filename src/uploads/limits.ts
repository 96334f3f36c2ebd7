// Upload sizes from API.md, exact to the byte.
export const MAX_FILE_BYTES = 10 * 1024 * 1024;
export const MAX_AVATAR_BYTES = 5 * 1024 * 1024;
export const MAX_FILES_PER_UPLOAD = 10;
/** Ten files at the limit plus multipart overhead; Bun answers 413 past this. */
export const MAX_REQUEST_BYTES = MAX_FILES_PER_UPLOAD * MAX_FILE_BYTES + 1024 * 1024;
