// What the server reads from a request besides its body: the bearer token, the session cookie,
// the client address and the origin check.
import type { Config } from "../config.ts";

export const SESSION_COOKIE = "sid";

export function bearerToken(authorization: string | null | undefined): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "");
  return match?.[1] ?? null;
}

export function cookieValue(cookieHeader: string | null | undefined, name: string): string | null {
  for (const part of (cookieHeader ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      try {
        return decodeURIComponent(part.slice(eq + 1).trim());
      } catch {
        return null;
      }
    }
  }
  return null;
}

export const sessionCookieOf = (request: Request): string | null => cookieValue(request.headers.get("cookie"), SESSION_COOKIE);

/**
 * The entry a trusted proxy appended to an X-Forwarded-* header: the last one. Earlier entries
 * are the client's word. Address, protocol and host all come from this same hop.
 */
function lastForwarded(request: Request, header: string): string | undefined {
  return request.headers.get(header)?.split(",").map((s) => s.trim()).filter(Boolean).pop();
}

/** https directly, or behind a trusted proxy that says so. */
export function isSecure(request: Request, config: Config): boolean {
  if (new URL(request.url).protocol === "https:") return true;
  return config.trustProxy && lastForwarded(request, "x-forwarded-proto")?.toLowerCase() === "https";
}

const YEAR = 365 * 24 * 60 * 60;

/** httpOnly, SameSite=Lax: pages and /uploads/ know who asks; /api state changes still need the bearer. */
export function sessionCookie(token: string, secure: boolean): string {
  return `${SESSION_COOKIE}=${encodeURIComponent(token)}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${YEAR}${secure ? "; Secure" : ""}`;
}

export const clearedSessionCookie = (secure: boolean): string =>
  `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0${secure ? "; Secure" : ""}`;

/**
 * The client's address. Behind a trusted proxy, the last X-Forwarded-For entry is the one the
 * proxy itself saw (earlier entries are the client's word).
 */
export function clientAddress(request: Request, socketAddress: string | undefined, config: Config): string {
  if (config.trustProxy) {
    const last = lastForwarded(request, "x-forwarded-for");
    if (last) return last;
  }
  return socketAddress ?? "unknown";
}

/** The site's own origin as the browser sees it. */
export function ownOrigin(request: Request, config: Config): string {
  const url = new URL(request.url);
  const host = (config.trustProxy && lastForwarded(request, "x-forwarded-host")) || request.headers.get("host") || url.host;
  return `${isSecure(request, config) ? "https" : "http"}://${host}`;
}

const loopbackHosts = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** localhost, 127.0.0.1 and [::1] on the same port are one server. */
function sameLoopback(a: string, b: string): boolean {
  try {
    const x = new URL(a);
    const y = new URL(b);
    return x.protocol === y.protocol && x.port === y.port && loopbackHosts.has(x.hostname) && loopbackHosts.has(y.hostname);
  } catch {
    return false;
  }
}

/** A missing Origin (a non-browser client) is allowed; a present one must be ours or listed. */
export function originAllowed(request: Request, config: Config): boolean {
  const origin = request.headers.get("origin");
  if (origin === null) return true;
  const own = ownOrigin(request, config);
  return origin === own || config.allowedOrigins.includes(origin) || sameLoopback(origin, own);
}
