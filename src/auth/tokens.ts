// A session token is "<session id>.<HMAC of the id>". The signature lets a forged token be refused
// without touching the database; the session row makes every token revocable (logout, ban).
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

const sign = (secret: string, sessionId: string) => createHmac("sha256", secret).update(sessionId).digest("base64url");

export const newSessionId = (): string => randomBytes(24).toString("base64url");

export const tokenFor = (secret: string, sessionId: string): string => `${sessionId}.${sign(secret, sessionId)}`;

/** The session id inside a well-signed token, or null. */
export function sessionIdOf(secret: string, token: unknown): string | null {
  if (typeof token !== "string" || token.length > 200) return null;
  const dot = token.indexOf(".");
  if (dot <= 0) return null;
  const sessionId = token.slice(0, dot);
  const given = Buffer.from(token.slice(dot + 1));
  const expected = Buffer.from(sign(secret, sessionId));
  return given.length === expected.length && timingSafeEqual(given, expected) ? sessionId : null;
}
