// Video Roulette: who is waiting (with their filters), who is paired with whom, and under which
// pairing id (see sessions.ts). User ids stay on the server; the partners only see the pairing id.
import type { ClientSocket } from "../realtime/socket.ts";
import { WaitingIndex, type Entry, type RouletteFilters, type RouletteProfile } from "./index.ts";
import { pairKey, RecentlyParted } from "./parted.ts";
import { RouletteSessions, type Session } from "./sessions.ts";

export type { RouletteFilters, RouletteProfile } from "./index.ts";

type Waiting = Entry<ClientSocket>;

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

export class RouletteQueue {
  /** The longest-waiting suitable partner is offered first. */
  private readonly waiting = new WaitingIndex<ClientSocket>();
  private readonly pairs = new Map<number, Pair>();
  private readonly parted: RecentlyParted;
  /** Pairs that must never meet again: one reported the other. */
  private readonly apart = new Set<number | string>();
  readonly sessions: RouletteSessions;
  /** Pairings made since start, for /metrics. */
  pairsFormed = 0;

  constructor(private readonly now: () => number = Date.now) {
    this.sessions = new RouletteSessions(now);
    this.parted = new RecentlyParted(now);
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
    this.apart.add(pairKey(a, b));
  }

  socketOf(userId: number): ClientSocket | undefined {
    return this.waiting.get(userId)?.socket ?? this.pairs.get(userId)?.socket;
  }

  /** Queues (or re-queues with new filters) and pairs at once when someone suits. */
  search(profile: RouletteProfile, filters: RouletteFilters, socket: ClientSocket, mayMeet: MayMeet = () => true): Pairing | null {
    this.waiting.remove(profile.userId);
    // A just-parted partner is offered again only when nobody else is waiting at all.
    const aloneWithOne = this.waiting.size === 1;
    const partner = this.waiting.first(profile, filters, (other) => {
      const id = other.profile.userId;
      if ((this.apart.size > 0 && this.apart.has(pairKey(profile.userId, id))) || !mayMeet(profile.userId, id)) return false;
      return aloneWithOne || !this.parted.has(profile.userId, id);
    });
    if (!partner) {
      this.waiting.add(profile, filters, socket);
      return null;
    }
    this.waiting.remove(partner.profile.userId);
    const me: Waiting = { profile, filters, socket, seq: 0, links: [] };
    const session = this.sessions.start(profile.userId, partner.profile.userId);
    this.pairsFormed += 1;
    this.pairs.set(profile.userId, { partnerId: partner.profile.userId, socket, sessionId: session.id });
    this.pairs.set(partner.profile.userId, { partnerId: profile.userId, socket: partner.socket, sessionId: session.id });
    return { offerer: me, answerer: partner, session };
  }

  /** Leaves the queue and ends a pair; returns the former partner's id and socket. */
  leave(userId: number): { partnerId: number; socket: ClientSocket } | undefined {
    this.waiting.remove(userId);
    const pair = this.pairs.get(userId);
    if (!pair) return undefined;
    this.pairs.delete(userId);
    const partner = this.pairs.get(pair.partnerId);
    this.pairs.delete(pair.partnerId);
    this.sessions.end(pair.sessionId);
    this.parted.record(userId, pair.partnerId);
    return partner ? { partnerId: pair.partnerId, socket: partner.socket } : undefined;
  }
}
