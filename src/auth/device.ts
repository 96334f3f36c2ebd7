// Where a sign-up or sign-in comes from, for bans that stick: a long-lived httpOnly device cookie
// (a random id, nothing else) and a keyed hash of the client address. The raw address is never
// stored: the HMAC with the server secret cannot be reversed without the secret.
import { createHmac, randomBytes } from "node:crypto";
import type { Config } from "../config.ts";
import { clientAddress, cookieValue, isSecure } from "../http/request.ts";
import type { Origin } from "../moderation/bans.ts";

export const DEVICE_COOKIE = "did";
const TWO_YEARS = 2 * 365 * 24 * 60 * 60;
export const DEVICE_ID = /^[A-Za-z0-9_-]{32}$/;

type Server = { requestIP(request: Request): { address: string } | null } | null | undefined;

export interface RequestOrigin extends Origin {
  deviceId: string;
  /** The client address, for per-address limits in memory; only its keyed hash is ever stored. */
  address: string;
  /** The Set-Cookie to send when the browser had no device cookie yet. */
  setCookie: string | null;
}

export function deviceCookie(id: string, secure: boolean): string {
  return `${DEVICE_COOKIE}=${id}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${TWO_YEARS}${secure ? "; Secure" : ""}`;
}

/** The HMAC of an address; null when the address is not known (no socket, as in app.handle). */
export function addressHash(secret: string, address: string): string | null {
  if (!address || address === "unknown") return null;
  // One spelling per IPv4 client, whether it arrived over IPv4 or IPv6.
  const normal = address.toLowerCase().replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/, "$1");
  return createHmac("sha256", secret).update(`address:${normal}`).digest("base64url");
}

export function requestOrigin(config: Config, request: Request, server: Server): RequestOrigin {
  const given = cookieValue(request.headers.get("cookie"), DEVICE_COOKIE);
  const known = given !== null && DEVICE_ID.test(given);
  const deviceId = known ? given : randomBytes(24).toString("base64url");
  const address = clientAddress(request, server?.requestIP(request)?.address, config);
  return {
    deviceId,
    address,
    addressHash: addressHash(config.secret, address),
    setCookie: known ? null : deviceCookie(deviceId, isSecure(request, config)),
  };
}
