// Country of an IP address from geoip-country's offline database (shipped in the npm package,
// no network at run time). Loopback and private addresses are never "detected".
import geoip from "geoip-country";
import { isIP } from "node:net";
import { countryName } from "./countries.ts";

const privateV4 = [/^10\./, /^127\./, /^169\.254\./, /^172\.(1[6-9]|2\d|3[01])\./, /^192\.168\./, /^100\.(6[4-9]|[7-9]\d|1[01]\d|12[0-7])\./, /^0\./];

export function normaliseAddress(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return mapped?.[1] ?? address;
}

export function isPrivateAddress(address: string): boolean {
  const ip = normaliseAddress(address);
  const kind = isIP(ip);
  if (kind === 4) return privateV4.some((re) => re.test(ip));
  if (kind === 6) {
    const lower = ip.toLowerCase();
    return lower === "::1" || lower === "::" || lower.startsWith("fc") || lower.startsWith("fd") || lower.startsWith("fe80");
  }
  return true;
}

export function countryOf(address: string): { code: string; name: string } | null {
  const ip = normaliseAddress(address);
  if (isPrivateAddress(ip)) return null;
  const found = geoip.lookup(ip);
  if (!found?.country) return null;
  const name = countryName(found.country);
  return name ? { code: found.country, name } : null;
}
