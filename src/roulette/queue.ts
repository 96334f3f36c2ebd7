// Video Roulette: who is waiting (with their filters), who is paired with whom, and under which
// pairing id (see sessions.ts). User ids stay on the server; the partners only see the pairing id.
import type { ClientSocket } from "../realtime/socket.ts";
import { RouletteSessions, type Session } from "./sessions.ts";

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
  session: Session;
}

/** Whether two users may meet at all (no block between them, for instance). */
export type MayMeet = (a: number, b: number) => boolean;

interface Pair {
  partnerId: number;
  socket: ClientSocket;
  sessionId: string;
}

const suits = (filters: RouletteFilters, profile: RouletteProfile) =>
  (filters.gender === "any" || filters.gender === profile.gender) &&
  (filters.country === "any" || filters.country === profile.countryCode);

/** How long two users who just parted are kept apart while someone else is waiting. */
const RECENT_MS = 60_000;

export class RouletteQueue {
  /** Insertion order is waiting order: the longest-waiting partner is offered first. */
  private readonly waiting = new Map<number, Waiting>();
  private readonly pairs = new Map<number, Pair>();
  private readonly recent = new Map<string, number>();
  /** Pairs that must never meet again: one reported the other. */
  private readonly apart = new Set<string>();
  readonly sessions: RouletteSessions;
  /** Pairings made since start, for /metrics. */
  pairsFormed = 0;

  constructor(private readonly now: () => number = Date.now) {
    this.sessions = new RouletteSessions(now);
  }

  get waitingCount(): number {
    return this.waiting.size;
  }

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

  /** The running session of `userId`, if paired. */
  sessionOf(userId: number): Session | undefined {
    const id = this.pairs.get(userId)?.sessionId;
    return id === undefined ? undefined : this.sessions.find(id);
  }

  /** The other participant of pairing `rouletteId`, while it runs or for 10 minutes after it ended. */
  strangerOf(rouletteId: string, userId: number): number | undefined {
    return this.sessions.strangerOf(rouletteId, userId);
  }

  /** From now on, `a` and `b` are never paired again. */
  keepApart(a: number, b: number): void {
    this.apart.add(this.key(a, b));
  }

  socketOf(userId: number): ClientSocket | undefined {
    return this.waiting.get(userId)?.socket ?? this.pairs.get(userId)?.socket;
  }

  /** Queues (or re-queues with new filters) and pairs at once when someone suits. */
  search(profile: RouletteProfile, filters: RouletteFilters, socket: ClientSocket, mayMeet: MayMeet = () => true): Pairing | null {
    this.waiting.delete(profile.userId);
    const me: Waiting = { profile, filters, socket };
    const candidates = [...this.waiting.values()].filter(
      (other) =>
        suits(filters, other.profile) &&
        suits(other.filters, profile) &&
        !this.apart.has(this.key(profile.userId, other.profile.userId)) &&
        mayMeet(profile.userId, other.profile.userId),
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
    const session = this.sessions.start(profile.userId, partner.profile.userId);
    this.pairsFormed += 1;
    this.pairs.set(profile.userId, { partnerId: partner.profile.userId, socket, sessionId: session.id });
    this.pairs.set(partner.profile.userId, { partnerId: profile.userId, socket: partner.socket, sessionId: session.id });
    return { offerer: me, answerer: partner, session };
  }

  /** Leaves the queue and ends a pair; returns the former partner's id and socket. */
  leave(userId: number): { partnerId: number; socket: ClientSocket } | undefined {
    this.waiting.delete(userId);
    const pair = this.pairs.get(userId);
    if (!pair) return undefined;
    this.pairs.delete(userId);
    const partner = this.pairs.get(pair.partnerId);
    this.pairs.delete(pair.partnerId);
    this.sessions.end(pair.sessionId);
    this.sweepRecent();
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

  /** Keeps the just-parted map from growing with every pair ever made. */
  private sweepRecent(): void {
    if (this.recent.size < 10_000) return;
    const now = this.now();
    for (const [key, at] of this.recent) if (now - at > RECENT_MS) this.recent.delete(key);
  }

  private key(a: number, b: number): string {
    return a < b ? `${a}:${b}` : `${b}:${a}`;
  }
}
