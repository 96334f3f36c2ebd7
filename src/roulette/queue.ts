// Video Roulette: who is waiting (with their filters) and who is paired with whom.
import type { ClientSocket } from "../realtime/socket.ts";

export interface RouletteFilters {
  gender: "any" | "male" | "female";
  /** "any" or an upper-case country code. */
  country: string;
}

export interface RouletteProfile {
  userId: number;
  gender: string;
  countryCode: string | null;
}

interface Waiting {
  profile: RouletteProfile;
  filters: RouletteFilters;
  socket: ClientSocket;
}

export interface Pairing {
  /** The one who searched last: told to create the offer. */
  offerer: Waiting;
  answerer: Waiting;
}

const suits = (filters: RouletteFilters, profile: RouletteProfile) =>
  (filters.gender === "any" || filters.gender === profile.gender) &&
  (filters.country === "any" || filters.country === profile.countryCode);

/** How long two users who just parted are kept apart while someone else is waiting. */
const RECENT_MS = 60_000;

export class RouletteQueue {
  /** Insertion order is waiting order: the longest-waiting partner is offered first. */
  private readonly waiting = new Map<number, Waiting>();
  private readonly pairs = new Map<number, { partnerId: number; socket: ClientSocket }>();
  private readonly recent = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  isWaiting(userId: number): boolean {
    return this.waiting.has(userId);
  }

  partnerOf(userId: number): number | undefined {
    return this.pairs.get(userId)?.partnerId;
  }

  /** The socket the partner of `userId` plays roulette on. */
  partnerSocket(userId: number): ClientSocket | undefined {
    const partnerId = this.pairs.get(userId)?.partnerId;
    return partnerId === undefined ? undefined : this.pairs.get(partnerId)?.socket;
  }

  socketOf(userId: number): ClientSocket | undefined {
    return this.waiting.get(userId)?.socket ?? this.pairs.get(userId)?.socket;
  }

  /** Queues (or re-queues with new filters) and pairs at once when someone suits. */
  search(profile: RouletteProfile, filters: RouletteFilters, socket: ClientSocket): Pairing | null {
    this.waiting.delete(profile.userId);
    const me: Waiting = { profile, filters, socket };
    const candidates = [...this.waiting.values()].filter(
      (other) => suits(filters, other.profile) && suits(other.filters, profile),
    );
    const othersWaiting = this.waiting.size;
    const fresh = candidates.find((c) => !this.justParted(profile.userId, c.profile.userId));
    // A just-parted partner is offered again only when nobody else is waiting at all.
    const partner = fresh ?? (othersWaiting === 1 ? candidates[0] : undefined);
    if (!partner) {
      this.waiting.set(profile.userId, me);
      return null;
    }
    this.waiting.delete(partner.profile.userId);
    this.pairs.set(profile.userId, { partnerId: partner.profile.userId, socket });
    this.pairs.set(partner.profile.userId, { partnerId: profile.userId, socket: partner.socket });
    return { offerer: me, answerer: partner };
  }

  /** Leaves the queue and ends a pair; returns the former partner's id and socket. */
  leave(userId: number): { partnerId: number; socket: ClientSocket } | undefined {
    this.waiting.delete(userId);
    const pair = this.pairs.get(userId);
    if (!pair) return undefined;
    this.pairs.delete(userId);
    const partner = this.pairs.get(pair.partnerId);
    this.pairs.delete(pair.partnerId);
    this.recent.set(this.key(userId, pair.partnerId), this.now());
    return partner ? { partnerId: pair.partnerId, socket: partner.socket } : undefined;
  }

  private justParted(a: number, b: number): boolean {
    const at = this.recent.get(this.key(a, b));
    if (at === undefined) return false;
    if (this.now() - at > RECENT_MS) {
      this.recent.delete(this.key(a, b));
      return false;
    }
    return true;
  }

  private key(a: number, b: number): string {
    return a < b ? `${a}:${b}` : `${b}:${a}`;
  }
}
