// U+0000 in text a client sends. PostgreSQL's text cannot hold it (it refuses the statement, which
// would answer 500), while SQLite would store it: so it is refused with a clear 400 on both engines
// alike. It has no use in anything a person writes. Checked where requests are validated
// (http/validate.ts, every JSON body, form post and query a route checks) and where socket frames
// are (realtime/dispatch.ts); a NUL that still reaches PostgreSQL (a route that reads a value by
// hand) is the same 400 where errors become answers (http/error-response.ts, the dispatcher).
import { validationError, type AppError } from "./errors.ts";

export const NUL_REFUSED = "Text cannot contain a NUL character";

const nulRefused = (): AppError => validationError({}, NUL_REFUSED);

/** Whether any string in the value (keys too), at any depth, holds U+0000. */
export function holdsNul(value: unknown): boolean {
  if (typeof value === "string") return value.includes("\u0000");
  if (typeof value !== "object" || value === null) return false;
  if (Array.isArray(value)) return value.some(holdsNul);
  for (const key in value) if (key.includes("\u0000") || holdsNul((value as Record<string, unknown>)[key])) return true;
  return false;
}

/**
 * The 400 for PostgreSQL's own refusal of such text, or undefined for any other error: 22021 (a
 * 0x00 byte in a bound value), 22P05 (\u0000 in JSON made text). drizzle keeps the driver's error as `cause`.
 */
export function nulRefusalFor(error: unknown): AppError | undefined {
  for (let depth = 0; depth < 4 && error instanceof Error; depth++, error = error.cause) {
    const code = (error as { code?: unknown }).code;
    if (error.name === "PostgresError" && (code === "22021" || code === "22P05")) return nulRefused();
  }
  return undefined;
}
