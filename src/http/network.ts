// The client network an address stands for, for limits and counts that must hold per person
// rather than per address: one IPv4 address, or the /64 an IPv6 address belongs to. A home line
// or a phone gets a whole /64 and may pick any address in it, so counting IPv6 addresses one by
// one would let one client be 2^64 of them.
import ipaddr from "ipaddr.js";

/** "1.2.3.4" or "2001:db8:0:1::/64"; null when the address is not known (no socket, as in app.handle). */
export function networkOf(address: string): string | null {
  const bare = address.replace(/%.*$/, "");
  if (!ipaddr.isValid(bare)) return null;
  // process() turns an IPv4-mapped IPv6 address into its IPv4 address: one client, one key.
  const parsed = ipaddr.process(bare);
  if (parsed.kind() === "ipv4") return parsed.toString();
  const parts = (parsed as ipaddr.IPv6).parts.slice(0, 4);
  return `${parts.map((p) => p.toString(16)).join(":")}::/64`;
}
