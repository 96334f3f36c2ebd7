// TURN credentials in the TURN REST scheme that coturn's `use-auth-secret` checks: the username
// is "<expiry unix seconds>:<id>" and the password base64(HMAC-SHA1(secret, username)). coturn
// needs no call to us: the secret it shares with the server is enough to verify them.
import { createHmac } from "node:crypto";

export interface TurnSettings {
  urls: string[];
  secret: string;
  ttlSeconds: number;
}

export interface TurnCredential {
  username: string;
  credential: string;
  /** Unix milliseconds after which coturn refuses the credential. */
  expiresAt: number;
}

/** What coturn computes from a username to check the password it was given. */
export function turnPassword(secret: string, username: string): string {
  return createHmac("sha1", secret).update(username).digest("base64");
}

/**
 * The username's id names the session without naming the user: an HMAC of the session id under
 * the server's own secret. coturn logs it, so an operator can match a relay allocation to a
 * session in our logs, but the partner (who sees nothing of it anyway) and coturn learn no user id.
 */
export function opaqueId(serverSecret: string, sessionId: string): string {
  return createHmac("sha256", serverSecret).update(`turn:${sessionId}`).digest("base64url").slice(0, 22);
}

export function mintTurnCredential(turn: TurnSettings, serverSecret: string, sessionId: string, now = Date.now()): TurnCredential {
  const expirySeconds = Math.floor(now / 1000) + turn.ttlSeconds;
  const username = `${expirySeconds}:${opaqueId(serverSecret, sessionId)}`;
  return { username, credential: turnPassword(turn.secret, username), expiresAt: expirySeconds * 1000 };
}
