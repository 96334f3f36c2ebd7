// Video Roulette: who is waiting (with their filters), who is paired with whom, and under which
// pairing id (see sessions.ts). User ids stay on the server; the partners only see the pairing id.
import type { ClientSocket } from "../realtime/socket.ts";
import { Fifo } from "./fifo.ts";
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
  /** The interests both searches listed (in the offerer's order); possibly none. */
  sharedInterests: string[];
}

/** The interests both lists hold, in the first list's order. */
export function sharedInterests(a: readonly string[] | undefined, b: readonly string[] | undefined): string[] {
  if (!a || !b || a.length === 0 || b.length === 0) return [];
  return a.filter((tag) => b.includes(tag));
}

/** Whether two users may meet at all (no block between them, for instance). */
export type MayMeet = (a: number, b: number) => boolean;

/** One side of a running pairing; the two sides point at each other, so a relay needs one lookup. */
export interface Pair {
  partnerId: number;
  socket: ClientSocket;
  session: Session;
  partner: Pair;
  /**
   * Several instances (cluster.ts): set on the partner's side when another instance holds their
   * socket. Its `socket` then sends there; what must also change that instance's copy of the
   * session (text, keep in touch, the end) goes as a message instead.
   */
  remote?: { instance: string; socket: string };
}

export class RouletteQueue {
  /** The longest-waiting suitable partner is offered first. */
  private readonly waiting = new WaitingIndex<ClientSocket>();
  protected readonly pairs = new Map<number, Pair>();
  private readonly parted: RecentlyParted;
  /** Places in the line per client network and per device (origins.ts). */
  private readonly origins: WaitingOrigins;
  /** Pairs that must never meet again: one reported the other (shared with a leader's queue in cluster.ts). */
  protected readonly apart: Set<number | string>;
  /** False here; true for the queue of several instances (cluster.ts): the handlers check it once. */
  readonly distributed: boolean = false;
  readonly sessions: RouletteSessions;
  /** Pairings made since start, for /metrics. */
  pairsFormed = 0;
  /**
   * People waiting for a shared interest, in arrival order, with when their wait ends. One who
   * left or searched again stays here until then and is skipped: at most the searches of the last
   * wait (each search is rate limited per socket).
   */
  private readonly opening = new Fifo<{ entry: Waiting; at: number }>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  /**
   * Told of each pairing made when a wait for a shared interest ends: no frame from either person
   * caused it, so no handler answers it (realtime/handlers/roulette.ts sends the frames).
   */
  onLatePairing: ((pairing: Pairing) => void) | null = null;
  /** Whether two may meet: the last rule a search gave (the handler always gives the app's). */
  protected mayMeet: MayMeet = () => true;

  constructor(
    private readonly now: () => number = Date.now,
    caps: WaitingCaps = UNCAPPED,
    /** ROULETTE_INTEREST_WAIT_SECONDS in ms: how long a search with interests holds out for a shared one. */
    readonly interestWaitMs = 10_000,
    apart: Set<number | string> = new Set(),
    sessions: RouletteSessions = new RouletteSessions(now),
  ) {
    this.apart = apart;
    this.sessions = sessions;
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

  /** Users with a running pairing (each pair counts twice): bounded by who is here. */
  get pairedCount(): number {
    return this.pairs.size;
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
  search(profile: RouletteProfile, filters: RouletteFilters, socket: ClientSocket, mayMeet?: MayMeet): Pairing | null {
    // The rule is the app's (blocks); kept for the searches openDue makes when a wait ends.
    if (mayMeet) this.mayMeet = mayMeet;
    const refusal = this.origins.refusal(profile.userId, socket);
    // Allowed to wait: the old place goes now. Refused: it stays until a partner is found (the scan
    // below never offers a searcher to themselves).
    if (!refusal) this.unwait(profile.userId);
    const interests = filters.interests ?? [];
    // Without interests (or with no wait) anyone suitable will do at once; with them, only someone
    // sharing one until the wait is over (then openDue searches again), or for good with interestsOnly.
    const open = interests.length === 0 || (this.interestWaitMs === 0 && !filters.interestsOnly);
    const partner = this.find(profile, filters, open);
    if (!partner) {
      if (refusal) throw refusal;
      const entry = this.waiting.add(profile, filters, socket, open);
      this.origins.hold(profile.userId, socket);
      if (!open && !filters.interestsOnly) {
        this.opening.push({ entry, at: this.now() + this.interestWaitMs });
        this.arm();
      }
      return null;
    }
    this.unwait(profile.userId);
    return this.pair({ profile, filters, socket, seq: 0, links: [] }, partner);
  }

  /**
   * Opens every search whose wait for a shared interest is over, and pairs each with the
   * longest-waiting suitable open person, if any. Runs on its own timer; returns the pairings made
   * (also given to onLatePairing).
   */
  openDue(): Pairing[] {
    const made: Pairing[] = [];
    const now = this.now();
    for (let next = this.opening.peek(); next && next.at <= now; next = this.opening.peek()) {
      this.opening.shift();
      const { entry } = next;
      // Left, paired or searched again since: that search has its own place.
      if (this.waiting.get(entry.profile.userId) !== entry) continue;
      const partner = this.find(entry.profile, entry.filters, true, true);
      if (!partner) {
        this.waiting.openUp(entry);
        continue;
      }
      this.unwait(entry.profile.userId);
      const pairing = this.pair(entry, partner);
      made.push(pairing);
      this.onLatePairing?.(pairing);
    }
    this.arm();
    return made;
  }

  /** Stops the timer (shutdown, tests). */
  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /** Searches waiting for a shared interest whose wait has not been seen to end yet (for tests and /metrics). */
  get openingCount(): number {
    return this.opening.length;
  }

  private arm(): void {
    if (this.timer) return;
    const next = this.opening.peek();
    if (!next) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.openDue();
    }, Math.max(0, next.at - this.now()));
    // Never what keeps a process (or a test run) alive.
    (this.timer as { unref?: () => void }).unref?.();
  }

  /**
   * The partner for a search: first the longest-waiting suitable person sharing an interest, then,
   * when `open`, the longest-waiting suitable open one. `skipShared`: the shared ones were
   * already looked for (a wait ending).
   */
  private find(profile: RouletteProfile, filters: RouletteFilters, open: boolean, skipShared = false): Waiting | undefined {
    // A just-parted partner is offered again only when nobody else suitable is waiting: otherwise
    // people who all parted from one another would wait side by side, even once the minute is over
    // (nothing searches again to pair them). The first such one met in the scan is the
    // longest-waiting. After MAX_PARTED_SKIPS of them the scan stops there, so a search costs a
    // bounded number of steps however many people it has just met.
    let justParted: Waiting | undefined;
    let skipped = 0;
    const partedFrom = this.parted.checkFor(profile.userId);
    const mayMeet = (id: number) => !(this.apart.size > 0 && this.apart.has(pairKey(profile.userId, id))) && this.mayMeet(profile.userId, id);
    // The parting is asked first: it is the cheap check, and once a fallback is held a just-parted
    // person is passed over without asking the (dearer) blocks at all.
    const accept = (other: Waiting): boolean | null => {
      const id = other.profile.userId;
      if (!partedFrom(id)) return mayMeet(id);
      if (!justParted) {
        if (!mayMeet(id)) return false;
        justParted = other;
      }
      return ++skipped >= MAX_PARTED_SKIPS ? null : false;
    };
    const hasInterests = (filters.interests?.length ?? 0) > 0;
    return (
      (hasInterests && !skipShared ? this.waiting.first(profile, filters, accept, true) : undefined) ??
      (open ? this.waiting.first(profile, filters, accept, false) : undefined) ??
      justParted
    );
  }

  private pair(me: Waiting, partner: Waiting): Pairing {
    this.unwait(partner.profile.userId);
    const session = this.sessions.start(me.profile.userId, partner.profile.userId);
    this.pairsFormed += 1;
    const mine = { partnerId: partner.profile.userId, socket: me.socket, session, partner: null as unknown as Pair };
    const theirs: Pair = { partnerId: me.profile.userId, socket: partner.socket, session, partner: mine };
    mine.partner = theirs;
    this.pairs.set(me.profile.userId, mine);
    this.pairs.set(partner.profile.userId, theirs);
    return { offerer: me, answerer: partner, session, sharedInterests: sharedInterests(me.filters.interests, partner.filters.interests) };
  }

  /**
   * Leaves the queue and ends a pair; returns the former partner's id and socket. `why` is for
   * cluster.ts, which tells a partner on another instance itself (and then returns nothing).
   */
  leave(userId: number, _why?: "next" | "disconnected"): Pair | undefined {
    this.unwait(userId);
    return this.endPair(userId);
  }

  /** Ends `userId`'s pair (if any) without touching a place in the line they may hold again. */
  endPair(userId: number): Pair | undefined {
    const pair = this.pairs.get(userId);
    if (!pair) return undefined;
    this.pairs.delete(userId);
    this.pairs.delete(pair.partnerId);
    this.sessions.end(pair.session);
    this.parted.record(userId, pair.partnerId);
    return pair.partner;
  }

  /**
   * Takes out everyone waiting or paired whose socket `gone` names (an instance that died, in a
   * leader's queue): memory follows who is still there. Answers how many went.
   */
  dropWhere(gone: (socket: ClientSocket) => boolean): number {
    let dropped = 0;
    for (const entry of [...this.waiting.values()]) {
      if (!gone(entry.socket)) continue;
      this.unwait(entry.profile.userId);
      dropped += 1;
    }
    for (const [userId, pair] of [...this.pairs]) {
      if (this.pairs.get(userId) !== pair || !gone(pair.socket)) continue;
      this.leave(userId);
      dropped += 1;
    }
    return dropped;
  }

  /** Every way out of the line passes here, so a place and its origin counts leave together. */
  private unwait(userId: number): void {
    this.waiting.remove(userId);
    this.origins.release(userId);
  }
}
