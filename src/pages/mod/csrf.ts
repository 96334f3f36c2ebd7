// The console's CSRF token: an HMAC of the session id with the server secret, so it needs no
// storage, changes with every sign-in and cannot be computed by another site.
import { createHmac, timingSafeEqual } from "node:crypto";

export const CSRF_FIELD = "csrf";

export const csrfToken = (secret: string, sessionId: string): string =>
  createHmac("sha256", secret).update(`mod-csrf:${sessionId}`).digest("base64url");

export function csrfValid(secret: string, sessionId: string, given: string | null): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(csrfToken(secret, sessionId));
  return a.length === b.length && timingSafeEqual(a, b);
}
