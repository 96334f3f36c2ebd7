// Video Roulette: who is waiting (with their filters), who is paired with whom, and under which
// pairing id (see sessions.ts). User ids stay on the server; the partners only see the pairing id.
import type { ClientSocket } from "../realtime/socket.ts";
import { WaitingIndex, type Entry, type RouletteFilters, type RouletteProfile } from "./index.ts";
import { UNCAPPED, WaitingOrigins, type WaitingCaps } from "./origins.ts";
import { pairKey, RecentlyParted } from "./parted.ts";
import { RouletteSessions, type Session } from "./sessions.ts";

export type { RouletteFilters, RouletteProfile } from "./index.ts";

type Waiting = Entry<ClientSocket>;

/** Just-parted people a search steps over before it settles for the longest-waiting of them. */
export const MAX_PARTED_SKIPS = 64;

export interface Pairing {
  /** The one who searched last: told to create the offer. */
  offerer: Waiting;
  answerer: Waiting;
  session: Session;
}

/** Whether two users may meet at all (no block between them, for instance). */
export type MayMeet = (a: number, b: number) => boolean;

/** One side of a running pairing; the two sides point at each other, so a relay needs one lookup. */
export interface Pair {
  partnerId: number;
  socket: ClientSocket;
  session: Session;
  partner: Pair;
}

export class RouletteQueue {
  /** The longest-waiting suitable partner is offered first. */
  private readonly waiting = new WaitingIndex<ClientSocket>();
  private readonly pairs = new Map<number, Pair>();
  private readonly parted: RecentlyParted;
  /** Places in the line per client network and per device (origins.ts). */
  private readonly origins: WaitingOrigins;
  /** Pairs that must never meet again: one reported the other. */
  private readonly apart = new Set<number | string>();
  readonly sessions: RouletteSessions;
  /** Pairings made since start, for /metrics. */
  pairsFormed = 0;

  constructor(
    private readonly now: () => number = Date.now,
    caps: WaitingCaps = UNCAPPED,
  ) {
    this.sessions = new RouletteSessions(now);
    this.parted = new RecentlyParted(now);
    this.origins = new WaitingOrigins(caps);
  }

  /** Client networks and devices with someone waiting now (bounded by who waits). */
  get originsHeld(): number {
    return this.origins.size;
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

  /** `userId`'s side of the running pairing: its session, and the partner's side with its socket. */
  pairOf(userId: number): Pair | undefined {
    return this.pairs.get(userId);
  }

  /** The socket the partner of `userId` plays roulette on. */
  partnerSocket(userId: number): ClientSocket | undefined {
    return this.pairs.get(userId)?.partner.socket;
  }

  /** The running session of `userId`, if paired (a running session never expires, so no find). */
  sessionOf(userId: number): Session | undefined {
    return this.pairs.get(userId)?.session;
  }

  /** The other participant of pairing `rouletteId`, while it runs or for 10 minutes after it ended. */
  strangerOf(rouletteId: string, userId: number): number | undefined {
    return this.sessions.strangerOf(rouletteId, userId);
  }

  /** From now on, `a` and `b` are never paired again. */
  keepApart(a: number, b: number): void {
    this.apart.add(pairKey(a, b));
  }

  /** One reported or blocked the other as a stranger. */
  keptApart(a: number, b: number): boolean {
    return this.apart.size > 0 && this.apart.has(pairKey(a, b));
  }

  socketOf(userId: number): ClientSocket | undefined {
    return this.waiting.get(userId)?.socket ?? this.pairs.get(userId)?.socket;
  }

  /**
   * Queues (or re-queues with new filters) and pairs at once when someone suits. Throws the
   * origin cap's refusal (rate_limited) when the searcher would have to wait and their network or
   * device already has its share of places; then nothing changes, not even an earlier place.
   */
  search(profile: RouletteProfile, filters: RouletteFilters, socket: ClientSocket, mayMeet: MayMeet = () => true): Pairing | null {
    const refusal = this.origins.refusal(profile.userId, socket);
    // Allowed to wait: the old place goes now. Refused: it stays until a partner is found (the scan
    // below never offers a searcher to themselves).
    if (!refusal) this.unwait(profile.userId);
    // A just-parted partner is offered again only when nobody else suitable is waiting: otherwise
    // people who all parted from one another would wait side by side, even once the minute is over
    // (nothing searches again to pair them). The first such one met in the scan is the
    // longest-waiting. After MAX_PARTED_SKIPS of them the scan stops there, so a search costs a
    // bounded number of steps however many people it has just met.
    let justParted: Waiting | undefined;
    let skipped = 0;
    const partner =
      this.waiting.first(profile, filters, (other) => {
        const id = other.profile.userId;
        if ((this.apart.size > 0 && this.apart.has(pairKey(profile.userId, id))) || !mayMeet(profile.userId, id)) return false;
        if (!this.parted.has(profile.userId, id)) return true;
        justParted ??= other;
        return ++skipped >= MAX_PARTED_SKIPS ? null : false;
      }) ?? justParted;
    if (!partner) {
      if (refusal) throw refusal;
      this.waiting.add(profile, filters, socket);
      this.origins.hold(profile.userId, socket);
      return null;
    }
    this.unwait(profile.userId);
    this.unwait(partner.profile.userId);
    const me: Waiting = { profile, filters, socket, seq: 0, links: [] };
    const session = this.sessions.start(profile.userId, partner.profile.userId);
    this.pairsFormed += 1;
    const mine = { partnerId: partner.profile.userId, socket, session, partner: null as unknown as Pair };
    const theirs: Pair = { partnerId: profile.userId, socket: partner.socket, session, partner: mine };
    mine.partner = theirs;
    this.pairs.set(profile.userId, mine);
    this.pairs.set(partner.profile.userId, theirs);
    return { offerer: me, answerer: partner, session };
  }

  /** Leaves the queue and ends a pair; returns the former partner's id and socket. */
  leave(userId: number): Pair | undefined {
    this.unwait(userId);
    const pair = this.pairs.get(userId);
    if (!pair) return undefined;
    this.pairs.delete(userId);
    this.pairs.delete(pair.partnerId);
    this.sessions.end(pair.session);
    this.parted.record(userId, pair.partnerId);
    return pair.partner;
  }

  /** Every way out of the line passes here, so a place and its origin counts leave together. */
  private unwait(userId: number): void {
    this.waiting.remove(userId);
    this.origins.release(userId);
  }
}
