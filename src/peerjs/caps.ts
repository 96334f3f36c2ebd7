// How many peers one browser, one account and one address may hold at once, so that no one of
// them can bring the server to peer's "concurrent user limit" for everybody else. The texts are
// the ERROR's `msg`: the browser's client shows them as a server error.
import type { PeerOptions } from "./options.ts";
import type { PeerOwner, PeerRegistry } from "./registry.ts";

export const capText = {
  session: (n: number) => `Too many calls open in this browser (at most ${n} at once). Close one, or another tab, and try again.`,
  user: (n: number) => `Too many calls open on this account (at most ${n} at once). Close one on another device and try again.`,
  address: (n: number) => `Too many calls open from this network address (at most ${n} at once). Try again later.`,
};

/** Why this owner may not open another peer now, or null when they may. */
export function capRefusal(registry: PeerRegistry, options: PeerOptions, owner: PeerOwner): string | null {
  const held = registry.heldBy(owner);
  if (held.session >= options.maxPeersPerSession) return capText.session(options.maxPeersPerSession);
  if (held.user >= options.maxPeersPerUser) return capText.user(options.maxPeersPerUser);
  if (held.address >= options.maxPeersPerAddress) return capText.address(options.maxPeersPerAddress);
  return null;
}
