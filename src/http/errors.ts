// Typed errors for every edge. Services throw AppError; one onError (app.ts) turns it into the
// contract's JSON shape `{error, code, fields?}`; the socket turns it into an `error` event.
export type ErrorCode =
  | "validation"
  | "invalid_credentials"
  | "unauthorized"
  | "forbidden"
  | "banned"
  | "not_found"
  | "username_taken"
  | "email_taken"
  | "too_large"
  | "quota_exceeded"
  | "storage_full"
  | "busy"
  | "unsupported_type"
  | "rate_limited"
  | "not_paired"
  | "blocked"
  | "not_accepting"
  | "suspended"
  | "adult_confirmation_required"
  | "appeal_exists"
  | "appeal_decided"
  | "ban_ended"
  | "internal"
  | "unavailable";

export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }

  toJSON(): Record<string, unknown> {
    return { error: this.message, code: this.code, ...this.extra };
  }
}

export const validationError = (fields: Record<string, string>, message = "Please check the highlighted fields") =>
  new AppError(400, "validation", message, { fields });

export const unauthorized = (message = "Please sign in") => new AppError(401, "unauthorized", message);

export const notFound = (message = "Not found") => new AppError(404, "not_found", message);

export const forbidden = (message = "You are not allowed to do this") => new AppError(403, "forbidden", message);

export const rateLimited = (retryAfterSeconds: number) =>
  new AppError(429, "rate_limited", "Too many attempts. Please wait a little and try again.", {
    retryAfter: Math.max(1, Math.ceil(retryAfterSeconds)),
  });

/** 503 when a shared resource (decoding, upload bandwidth) is taken; the client retries later. */
export const busy = (message: string, retryAfterSeconds: number) =>
  new AppError(503, "busy", message, { retryAfter: Math.max(1, Math.ceil(retryAfterSeconds)) });

/** 503 while a shared engine (Redis, PostgreSQL) cannot be reached; service resumes by itself. */
export const unavailable = (retryAfterSeconds = 2) =>
  new AppError(503, "unavailable", "The service is briefly unavailable. Please try again in a moment.", {
    retryAfter: Math.max(1, Math.ceil(retryAfterSeconds)),
  });
