// Who may read /metrics. With METRICS_TOKEN set: whoever sends it as a bearer token, compared in
// constant time. Without it: only clients on this machine, judged by the socket's address, never by a
// header a client can write. Behind a proxy (TRUST_PROXY) every request arrives from the proxy, often
// on loopback, and a proxy that forgets X-Forwarded-For would pass strangers off as local: there the
// token is the only way in.
import { createHash, timingSafeEqual } from "node:crypto";
import type { Config } from "../config.ts";
import { bearerToken, clientAddress } from "../http/request.ts";

export type MetricsAccess = "allowed" | "token_required" | "loopback_only" | "proxy_needs_token";

/** Hashing first gives equal lengths, so the comparison time says nothing about the token. */
const digest = (value: string) => createHash("sha256").update(value).digest();

export function isLoopback(address: string): boolean {
  const plain = address.toLowerCase().replace(/^::ffff:/, "");
  return plain === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(plain);
}

export function metricsAccess(request: Request, socketAddress: string | undefined, config: Config): MetricsAccess {
  if (config.metricsToken !== null) {
    const given = bearerToken(request.headers.get("authorization"));
    return given !== null && timingSafeEqual(digest(given), digest(config.metricsToken)) ? "allowed" : "token_required";
  }
  if (config.trustProxy) return "proxy_needs_token";
  return isLoopback(clientAddress(request, socketAddress, config)) ? "allowed" : "loopback_only";
}
