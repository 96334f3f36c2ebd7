// The appeal link: /appeal/<ban id>.<HMAC>. Signed with the server secret so that nobody can
// read or appeal someone else's ban by counting ids, and it works without a session (a banned
// user has none).
import { createHmac, timingSafeEqual } from "node:crypto";

const sign = (secret: string, banId: number) => createHmac("sha256", secret).update(`appeal:${banId}`).digest("base64url");

export const appealToken = (secret: string, banId: number): string => `${banId}.${sign(secret, banId)}`;

export const appealUrl = (secret: string, banId: number): string => `/appeal/${appealToken(secret, banId)}`;

/** The ban id inside a well-signed token, or null. */
export function banIdOfAppealToken(secret: string, token: unknown): number | null {
  if (typeof token !== "string" || token.length > 100) return null;
  const match = /^([1-9]\d{0,15})\.([A-Za-z0-9_-]+)$/.exec(token);
  if (!match) return null;
  const banId = Number(match[1]);
  if (!Number.isSafeInteger(banId)) return null;
  const given = Buffer.from(match[2]!);
  const expected = Buffer.from(sign(secret, banId));
  return given.length === expected.length && timingSafeEqual(given, expected) ? banId : null;
}
