// Video Roulette over several instances (issue 23; docs/DECISIONS.md "Roulette across instances").
// One instance at a time is the matchmaker: it holds the roulette lease and, behind it, today's
// queue (queue.ts, the same index, filters, interests, recent partings, origin caps and
// keep-apart rules) with every waiting person of every instance. The others send it their
// searches and leaves over the bus and hear back; the matchmaker tells each partner's instance of
// a pairing, and from then on the two instances talk directly: text lines, keep in touch and the
// end go as messages to the partner's instance, WebRTC signals straight to the partner's socket
// (hub fan-out). The bus reaches every instance, so every instance keeps a copy of every running
// session and its lines: a report or a stranger block by pairing id works on whichever instance
// the HTTP request reaches. Every instance says it is alive every second; a partner's instance
// silent for DEAD_MS is dead and its pairs end with roulette_partner_disconnected.
// Bus messages are server-side only and carry user ids; nothing here reaches a client but the
// same frames one process sends.
//
// PUB/SUB is at-most-once: a lost search or reply ends in `unavailable` after REPLY_MS (the client
// searches again), a lost line or keep press is lost like a dropped frame, and a lost end is caught
// by the partner's next action (Next, Stop, or closing), never acknowledged to anyone.
import { AppError, unavailable, type ErrorCode } from "../http/errors.ts";
import { whileLeader } from "../cluster/leader.ts";
import type { Ports } from "../cluster/ports.ts";
import type { AppContext } from "../context.ts";
import type { ClientSocket } from "../realtime/socket.ts";
import { encodeEvent } from "../realtime/hub.ts";
import { iso } from "../time.ts";
import { findUser, toPublicUser } from "../users/service.ts";
import { mayMeetInRoulette } from "../blocks/strangers.ts";
import type { WaitingCaps } from "./origins.ts";
import { UNCAPPED } from "./origins.ts";
import { pairKey } from "./parted.ts";
import { RouletteQueue, type Pair, type Pairing, type RouletteFilters, type RouletteProfile } from "./queue.ts";
import { ClusterSessions, KEEP_A, KEEP_B, type RouletteSessions, type Session, type TextLine } from "./sessions.ts";
import { partnerFoundFrame } from "../realtime/handlers/roulette.ts";

/** How often each instance says it is alive. */
export const BEAT_MS = 1_000;
/** A partner's instance silent this long is dead (its pairs end within DEAD_MS + BEAT_MS: under 10 s). */
export const DEAD_MS = 5_000;
/** The matchmaker's lease: another instance takes over within this (plus a third) of its death. */
export const LEASE_MS = 3_000;
/** A search the matchmaker has not answered in this long answers `unavailable`. */
export const REPLY_MS = 5_000;
/** Messages per bus publish: a start-up's keep-apart pairs go in several. */
const BATCH_MAX = 1_000;
const TOPIC = "roulette";

type Why = "next" | "disconnected";
/** A profile as a bus message carries it (profileOf's `members` is rebuilt where it is sent). */
type Profile = Pick<RouletteProfile, "userId" | "gender" | "countryCode" | "countryName" | "age" | "languages">;

type Msg =
  | { k: "beat"; i: string }
  /** From the matchmaker i: send it your waiting searches (all instances, or only `to`). */
  | { k: "lead"; i: string; to?: string }
  /** To the matchmaker: a search from instance i, socket s, request r. */
  | { k: "search"; i: string; r: number; s: string; p: Profile; f: RouletteFilters; a: string; d: string | null }
  /** To the matchmaker: u left the line and their pair, as instance i held them. */
  | { k: "leave"; i: string; u: number }
  /** To the matchmaker: u's pair `id` is over (u may be searching again: their place stays). */
  | { k: "unpair"; u: number; id: string }
  | { k: "reply"; to: string; r: number; e?: [number, ErrorCode, string] }
  /** To u's instance: u (search r) is paired with p (instance pi, socket ps) in session id. */
  | { k: "pair"; to: string; u: number; r: number; reply: boolean; id: string; a: number; b: number; at: number; p: Profile; pi: string; ps: string; o: boolean; sh: string[] }
  /** To u's instance (every instance ends its copy of session id). */
  | { k: "end"; to: string; u: number; id: string; w: Why }
  /** From instance i to u's instance `to` (every other instance adds it to its copy). */
  | { k: "line"; i: string; to: string; u: number; id: string; from: number; text: string; at: number }
  /** u's pair or search is ended from another instance (a suspension, a report, a block): wherever u plays. */
  | { k: "evict"; u: number; w: Why }
  | { k: "keep"; to: string; u: number; id: string; bit: number }
  | { k: "apart"; a: number; b: number };

/** A search of a user whose socket is on this instance. */
interface Here {
  req: number;
  socket: ClientSocket;
  profile: Profile;
  filters: RouletteFilters;
}

/** A running pairing as every instance knows it: its session copy and where each side plays. */
interface Running {
  session: Session;
  partnerId: number;
  instances: readonly [string, string];
}

interface Pending {
  u: number;
  at: number;
  /** The place this search replaced, put back when the matchmaker refuses it (then nothing changes). */
  prev: Here | undefined;
  resolve: (status: "searching" | "paired") => void;
  reject: (error: unknown) => void;
}

/** A socket on some instance, as the matchmaker's queue holds it: enough for the origin caps and the answer. */
interface Far extends ClientSocket {
  readonly instance: string;
  readonly req: number;
}

const NEXT_FRAME = encodeEvent("roulette_partner_next", {});
const DISCONNECTED_FRAME = encodeEvent("roulette_partner_disconnected", {});

const bare = (p: RouletteProfile): Profile => ({ userId: p.userId, gender: p.gender, countryCode: p.countryCode, countryName: p.countryName ?? null, age: p.age ?? null, languages: p.languages ?? [] });

export interface ClusterTiming {
  beatMs: number;
  deadMs: number;
  leaseMs: number;
  replyMs: number;
}

export class ClusterRoulette extends RouletteQueue {
  override readonly distributed = true;
  private readonly instance: string;
  /** Searches of this instance's users, until paired or gone (sent again to a new matchmaker). */
  private readonly here = new Map<number, Here>();
  /** Searches sent and not answered yet, oldest first. */
  private readonly pending = new Map<number, Pending>();
  private reqs = 0;
  /** Every running pairing of every instance, by each of its two users (reports, blocks, sessionOf). */
  private readonly running = new Map<number, Running>();
  /** Other instances -> when last heard; one silent past deadMs is dead. Bounded by instances. */
  private readonly heard = new Map<string, number>();
  /** The matchmaker's queue while this instance holds the lease. */
  private matchmaker: RouletteQueue | null = null;
  private out: Msg[] = [];
  private flushing = false;
  private closed = false;
  private crashed = false;
  private app: AppContext | null = null;
  private stopLeading: (() => void) | null = null;
  private unsubscribe: (() => void) | null = null;
  private beat: ReturnType<typeof setInterval> | null = null;
  private readonly timing: ClusterTiming;

  constructor(
    private readonly ports: Ports,
    private readonly clock: () => number = Date.now,
    private readonly caps: WaitingCaps = UNCAPPED,
    interestWaitMs = 10_000,
    timing: Partial<ClusterTiming> = {},
  ) {
    super(clock, caps, interestWaitMs, new Set(), new ClusterSessions(clock));
    this.instance = ports.fanOut.instanceId;
    this.timing = { beatMs: BEAT_MS, deadMs: DEAD_MS, leaseMs: LEASE_MS, replyMs: REPLY_MS, ...timing };
  }

  /** Starts listening, beating and competing for the matchmaker's lease (context.ts, once). */
  bind(app: AppContext): void {
    this.app = app;
    // Blocks and carried accounts are read where the matchmaker runs, with the keep-apart pairs
    // every instance shares (keepApart below).
    this.mayMeet = (a, b) => mayMeetInRoulette(app, a, b);
    this.unsubscribe = this.ports.bus.subscribe(TOPIC, (data) => {
      if (!this.closed && Array.isArray(data)) for (const m of data as Msg[]) this.receive(m);
    });
    this.beat = setInterval(() => this.tick(), this.timing.beatMs);
    this.beat.unref?.();
    this.send({ k: "beat", i: this.instance });
    // After crash() the lease is neither renewed nor given back: it runs out, as after a kill -9.
    const lease = this.ports.lease(TOPIC, this.timing.leaseMs);
    const held = {
      hold: () => (this.crashed ? Promise.resolve(false) : lease.hold()),
      release: () => (this.crashed ? Promise.resolve() : lease.release()),
    };
    this.stopLeading = whileLeader(held, this.timing.leaseMs, () => this.lead(), (error) =>
      app.log.warn("roulette lease check failed", { error: (error as Error)?.message ?? String(error) }));
  }

  /** Whether this instance is the matchmaker now (tests, /metrics). */
  get leading(): boolean {
    return this.matchmaker !== null;
  }

  /** The matchmaker's queue while this instance leads (tests). */
  get matchmakerQueue(): RouletteQueue | null {
    return this.matchmaker;
  }

  /** Searches not answered yet, and instances heard from (tests: both stay bounded). */
  get pendingCount(): number {
    return this.pending.size;
  }

  get instancesHeard(): number {
    return this.heard.size;
  }

  override get waitingCount(): number {
    return this.here.size;
  }

  override isWaiting(userId: number): boolean {
    return this.here.has(userId);
  }

  /** The running session of `userId`, here or on another instance (a report or block may come to any). */
  override sessionOf(userId: number): Session | undefined {
    return this.pairs.get(userId)?.session ?? this.running.get(userId)?.session;
  }

  override partnerOf(userId: number): number | undefined {
    return this.pairs.get(userId)?.partnerId ?? this.running.get(userId)?.partnerId;
  }

  /** Pairings known to be running, by user (tests: bounded by who is paired). */
  get runningCount(): number {
    return this.running.size;
  }

  override socketOf(userId: number): ClientSocket | undefined {
    return this.here.get(userId)?.socket ?? this.pairs.get(userId)?.socket;
  }

  /** Shared with every instance, so whichever leads next knows it too. */
  override keepApart(a: number, b: number): void {
    if (this.apart.has(pairKey(a, b))) return;
    super.keepApart(a, b);
    this.send({ k: "apart", a, b });
  }

  /** Not used across instances: searchAcross is the asynchronous search. */
  override search(): Pairing | null {
    throw new Error("roulette: several instances search with searchAcross");
  }

  /**
   * Sends the search to the matchmaker and answers once it has: "paired" after the partner's
   * roulette_partner_found has been sent to `socket`, "searching" when it waits, or the
   * matchmaker's refusal (then an earlier place stays, as on one process).
   */
  searchAcross(profile: RouletteProfile, filters: RouletteFilters, socket: ClientSocket): Promise<"searching" | "paired"> {
    const u = profile.userId;
    const req = ++this.reqs;
    const prev = this.here.get(u);
    const entry: Here = { req, socket, profile: bare(profile), filters };
    this.here.set(u, entry);
    return new Promise((resolve, reject) => {
      this.pending.set(req, { u, at: this.clock(), prev, resolve, reject });
      this.send(this.searchMsg(entry));
    });
  }

  /**
   * Leaves the line and ends the pair. A partner here is answered to the caller (who sends the
   * frame, as on one process); a partner elsewhere is told by their own instance.
   */
  override leave(userId: number, why: Why = "disconnected"): Pair | undefined {
    const waiting = this.here.get(userId);
    if (waiting) this.stopWaiting(userId, waiting);
    const pair = this.pairs.get(userId);
    this.send({ k: "leave", i: this.instance, u: userId });
    if (!waiting && !pair) {
      // Not playing here (a moderator's suspension, or a report or block sent to this instance):
      // the instance holding their socket ends it.
      this.send({ k: "evict", u: userId, w: why });
      return undefined;
    }
    if (!pair) return undefined;
    this.pairs.delete(userId);
    // Ended here and now, not when the bus echoes the end: a search sent right after Next (the
    // client's usual pair of frames) must not find the pairing still running (partnerOf), or its
    // handler's leave would evict that very search (the bench saw every such search dropped).
    this.ended(pair.session.id);
    this.endCopy(pair.session);
    const { partner } = pair;
    // Every instance ends its copy; a partner elsewhere is told by their own instance.
    this.send({ k: "end", to: partner.remote?.instance ?? this.instance, u: pair.partnerId, id: pair.session.id, w: why });
    if (partner.remote) return undefined;
    if (this.pairs.get(pair.partnerId)?.session === pair.session) this.pairs.delete(pair.partnerId);
    return partner;
  }

  /**
   * A text line already kept in this instance's copy: every other instance's copy keeps it too,
   * and a partner on another instance gets it from theirs.
   */
  relayLine(mine: Pair, line: TextLine): void {
    const to = mine.partner.remote?.instance ?? this.instance;
    this.send({ k: "line", i: this.instance, to, u: mine.partnerId, id: mine.session.id, from: line.senderId, text: line.text, at: line.at });
  }

  /**
   * "Keep in touch" with a partner on another instance: each instance tells its own user once both
   * pressed (one press alone is never revealed).
   */
  pressKeep(mine: Pair, userId: number): void {
    const { session } = mine;
    const before = session.keep;
    session.keep |= session.a === userId ? KEEP_A : KEEP_B;
    if (before === session.keep) return;
    const remote = mine.partner.remote;
    if (remote) this.send({ k: "keep", to: remote.instance, u: mine.partnerId, id: session.id, bit: session.keep & ~before });
    if (session.keep === (KEEP_A | KEEP_B)) this.contact(mine.socket, userId, mine.partnerId);
  }

  /**
   * Stops without a word, as a kill -9 would: no more beats or messages, and the lease is left to
   * run out rather than given back (tests of an instance's death).
   */
  crash(): void {
    this.crashed = true;
    this.close();
  }

  override close(): void {
    super.close();
    this.closed = true;
    if (this.beat) clearInterval(this.beat);
    this.beat = null;
    this.unsubscribe?.();
    this.stopLeading?.();
    this.stopLeading = null;
    this.matchmaker?.close();
    this.matchmaker = null;
    for (const pending of this.pending.values()) pending.reject(unavailable());
    this.pending.clear();
  }

  // ---- this instance's side ----

  private searchMsg(entry: Here): Msg {
    const { socket } = entry;
    return { k: "search", i: this.instance, r: entry.req, s: socket.id, p: entry.profile, f: entry.filters, a: socket.address, d: socket.deviceId ?? null };
  }

  private stopWaiting(userId: number, waiting: Here): void {
    this.here.delete(userId);
    // Stopped or closed before the answer: that search is over, whatever the answer says.
    const pending = this.pending.get(waiting.req);
    if (pending) {
      this.pending.delete(waiting.req);
      pending.resolve("searching");
    }
  }

  private receive(m: Msg): void {
    switch (m.k) {
      case "beat":
        if (m.i === this.instance) return;
        // An instance the matchmaker has not heard (new, or back after an outage made it look
        // dead and its people were dropped) is asked for its searches again.
        if (!this.heard.has(m.i) && this.matchmaker) this.send({ k: "lead", i: this.instance, to: m.i });
        this.heard.set(m.i, this.clock());
        return;
      case "lead":
        if (m.to !== undefined && m.to !== this.instance) return;
        // A new matchmaker starts empty: every search waiting here goes to it again (same request;
        // one it already holds keeps its place).
        if (m.i !== this.instance) this.heard.set(m.i, this.clock());
        for (const entry of this.here.values()) this.send(this.searchMsg(entry));
        return;
      case "apart":
        super.keepApart(m.a, m.b);
        return;
      case "search":
      case "leave":
        if (this.matchmaker) this.match(this.matchmaker, m);
        return;
      case "unpair":
        this.ended(m.id);
        if (this.matchmaker) this.match(this.matchmaker, m);
        return;
      case "evict":
        return this.evicted(m.u, m.w);
      case "pair":
        this.seePair(m);
        break;
      case "end":
        this.ended(m.id);
        break;
      case "line":
        // The sender's instance kept it already (and sent it, when the partner is here too).
        if (m.i === this.instance) return;
        if (m.to !== this.instance) {
          const copy = this.copies.find(m.id);
          if (copy && copy.endedAt === null) this.storeOf(copy).addLine(copy, { senderId: m.from, text: m.text, at: m.at });
          return;
        }
        break;
    }
    if (m.to !== this.instance) return;
    switch (m.k) {
      case "reply":
        return this.replied(m);
      case "pair":
        return this.paired(m);
      case "end": {
        const pair = this.pairs.get(m.u);
        if (!pair || pair.session.id !== m.id) return;
        this.pairs.delete(m.u);
        pair.socket.sendText(m.w === "next" ? NEXT_FRAME : DISCONNECTED_FRAME);
        return;
      }
      case "line": {
        const pair = this.pairs.get(m.u);
        if (!pair || pair.session.id !== m.id) return;
        this.sessions.addLine(pair.session, { senderId: m.from, text: m.text, at: m.at });
        pair.socket.sendText(encodeEvent("roulette_text", { text: m.text, at: iso(m.at) }));
        return;
      }
      case "keep": {
        const pair = this.pairs.get(m.u);
        if (!pair || pair.session.id !== m.id) return;
        const before = pair.session.keep;
        pair.session.keep |= m.bit & (KEEP_A | KEEP_B);
        if (before !== pair.session.keep && pair.session.keep === (KEEP_A | KEEP_B)) this.contact(pair.socket, m.u, pair.partnerId);
        return;
      }
    }
  }

  private replied(m: Extract<Msg, { k: "reply" }>): void {
    const pending = this.pending.get(m.r);
    if (!pending) return;
    this.pending.delete(m.r);
    if (!m.e) return pending.resolve("searching");
    // Refused: the earlier place (if any) is still the matchmaker's, so it is ours again too.
    if (this.here.get(pending.u)?.req === m.r) {
      if (pending.prev) this.here.set(pending.u, pending.prev);
      else this.here.delete(pending.u);
    }
    pending.reject(new AppError(m.e[0], m.e[1], m.e[2]));
  }

  private paired(m: Extract<Msg, { k: "pair" }>): void {
    const waiting = this.here.get(m.u);
    const pending = m.reply ? this.pending.get(m.r) : undefined;
    if (pending) this.pending.delete(m.r);
    if (!waiting || waiting.req !== m.r) {
      // Left or searched again while the matchmaker paired them: this pairing ends at once, for the
      // partner as if they had pressed Stop (their place, if any, stays).
      this.send({ k: "unpair", u: m.u, id: m.id });
      this.send({ k: "end", to: m.pi, u: m.p.userId, id: m.id, w: "disconnected" });
      pending?.resolve("searching");
      return;
    }
    this.here.delete(m.u);
    // seePair made this instance's copy (persisted here when this instance keeps it).
    const session = this.storeFor(m).adopt(m.id, m.a, m.b, m.at);
    const elsewhere = m.pi !== this.instance;
    if (elsewhere && !this.heard.has(m.pi)) this.heard.set(m.pi, this.clock());
    const partnerSocket = this.farSocket(m.pi, m.ps, m.p.userId);
    const mine = { partnerId: m.p.userId, socket: waiting.socket, session, partner: null as unknown as Pair };
    const theirs: Pair = { partnerId: m.u, socket: partnerSocket, session, partner: mine };
    if (elsewhere) theirs.remote = { instance: m.pi, socket: m.ps };
    mine.partner = theirs;
    this.pairs.set(m.u, mine);
    waiting.socket.sendText(partnerFoundFrame(m.id, m.p, m.o, m.sh));
    pending?.resolve("paired");
  }

  /** A socket on instance `instance` (this one included): frames go through the hub's fan-out. */
  private farSocket(instance: string, socketId: string, userId: number): ClientSocket {
    const fanOut = this.ports.fanOut;
    return {
      id: socketId,
      userId,
      sessionId: "",
      address: "",
      present: true,
      lastHeardAt: 0,
      sendText: (text) => fanOut.toSocket(instance, socketId, text),
      close: () => {},
    };
  }

  /** Both pressed: `userId` (whose socket is here) may now write to `otherId`, and is told who they are. */
  private contact(socket: ClientSocket, userId: number, otherId: number): void {
    const app = this.app;
    if (!app) return;
    app.contacts.add(userId, otherId);
    app.contacts.add(otherId, userId);
    void findUser(app.db, otherId)
      .then((other) => {
        if (other) app.hub.send(socket, "roulette_contact", { user: toPublicUser(other) });
      })
      .catch((error) => app.log.warn("roulette keep in touch: reading the partner failed", { error: (error as Error)?.message ?? String(error) }));
  }

  /** Every beat: say this instance is alive, end pairs with dead instances, expire unanswered searches. */
  private tick(): void {
    this.send({ k: "beat", i: this.instance });
    const now = this.clock();
    for (const [instance, at] of this.heard) if (now - at > this.timing.deadMs) this.dead(instance);
    for (const [req, pending] of this.pending) {
      if (now - pending.at < this.timing.replyMs) break;
      this.pending.delete(req);
      const waiting = this.here.get(pending.u);
      if (waiting?.req === req) {
        this.here.delete(pending.u);
        this.send({ k: "leave", i: this.instance, u: pending.u });
      }
      pending.reject(unavailable());
    }
  }

  /** An instance went silent: its users' partners here hear roulette_partner_disconnected; the matchmaker forgets its people. */
  private dead(instance: string): void {
    this.heard.delete(instance);
    for (const [userId, pair] of [...this.pairs]) {
      if (pair.partner.remote?.instance !== instance || this.pairs.get(userId) !== pair) continue;
      this.pairs.delete(userId);
      this.endCopy(pair.session);
      this.send({ k: "unpair", u: userId, id: pair.session.id });
      pair.socket.sendText(DISCONNECTED_FRAME);
    }
    // Pairings with a side there end in every copy (no one there will say so).
    for (const run of [...this.running.values()]) if (run.instances.includes(instance)) this.ended(run.session.id);
    this.matchmaker?.dropWhere((socket) => (socket as Far).instance === instance);
  }

  private get copies(): ClusterSessions {
    return this.sessions as ClusterSessions;
  }

  /** The store that holds `session`: this instance's (persisted) or the copies of others'. */
  private storeOf(session: Session): RouletteSessions {
    return this.copies.holds(session) ? this.sessions : this.copies.others;
  }

  private endCopy(session: Session): void {
    this.storeOf(session).end(session);
  }

  /**
   * Where this instance holds a pairing's copy: with its own sessions, which are written to the
   * database every second (persist.ts), on the instance of the session's side `a` only; with the
   * copies of others' everywhere else, the partner's instance included. Each pairing is then one
   * row, written once, where both sides' instances used to write a row each (DECISIONS, issue 23,
   * tenth session). The copies answer reports and blocks by pairing id all the same; a restart
   * reads every instance's rows back, so it finds the keeper's.
   */
  private storeFor(m: Extract<Msg, { k: "pair" }>): RouletteSessions {
    const keeper = m.u === m.a ? m.to : m.pi;
    return keeper === this.instance ? this.sessions : this.copies.others;
  }

  /** Every instance hears of every pairing: a copy of its session, and who is in it. */
  private seePair(m: Extract<Msg, { k: "pair" }>): void {
    const session = this.storeFor(m).adopt(m.id, m.a, m.b, m.at);
    // One pairing at a time per user: an earlier one whose end was lost (PUB/SUB) ends now.
    const before = this.running.get(m.u);
    if (before && before.session !== session) this.ended(before.session.id);
    this.running.set(m.u, { session, partnerId: m.p.userId, instances: [m.to, m.pi] });
  }

  /** A pairing ended (wherever): its copy here ends, and its users are no longer running. */
  private ended(id: string): void {
    const session = this.copies.find(id);
    if (!session) return;
    this.endCopy(session);
    for (const userId of [session.a, session.b]) if (this.running.get(userId)?.session === session) this.running.delete(userId);
  }

  /** Another instance ended `userId`'s play: done here if their socket is here. */
  private evicted(userId: number, why: Why): void {
    if (!this.here.has(userId) && !this.pairs.has(userId)) return;
    const former = this.leave(userId, why);
    former?.socket.sendText(why === "next" ? NEXT_FRAME : DISCONNECTED_FRAME);
  }

  // ---- the matchmaker ----

  private lead(): () => void {
    const queue = new RouletteQueue(this.clock, this.caps, this.interestWaitMs, this.apart);
    queue.onLatePairing = (pairing) => this.announce(pairing, 0);
    this.matchmaker = queue;
    this.app?.log.info("roulette: this instance is the matchmaker", { instance: this.instance });
    this.send({ k: "lead", i: this.instance });
    return () => {
      queue.close();
      if (this.matchmaker === queue) this.matchmaker = null;
    };
  }

  private match(queue: RouletteQueue, m: Extract<Msg, { k: "search" | "leave" | "unpair" }>): void {
    if (m.k === "leave") {
      // Only from the instance that holds their place or pair: a search since from another tab on
      // another instance has replaced it, and an older tab closing must not end the newer search.
      const held = queue.socketOf(m.u) as Far | undefined;
      if (held && held.instance !== m.i) return;
      return void queue.leave(m.u);
    }
    if (m.k === "unpair") {
      if (queue.sessionOf(m.u)?.id === m.id) queue.endPair(m.u);
      return;
    }
    // A search from a dead instance (heard late) would pair someone with nobody.
    if (m.i !== this.instance && !this.heard.has(m.i)) this.heard.set(m.i, this.clock());
    const socket: Far = { ...this.farSocket(m.i, m.s, m.p.userId), address: m.a, deviceId: m.d, instance: m.i, req: m.r };
    // The same search sent again (to a new matchmaker, or after an outage): it keeps its place.
    const held = queue.isWaiting(m.p.userId) ? (queue.socketOf(m.p.userId) as Far | undefined) : undefined;
    if (held && held.req === m.r && held.instance === m.i) return this.send({ k: "reply", to: m.i, r: m.r });
    // Searching while paired ends the pair first, as the searcher's instance already told the partner.
    if (queue.partnerOf(m.p.userId) !== undefined) queue.endPair(m.p.userId);
    let pairing: Pairing | null;
    try {
      pairing = queue.search(m.p, m.f, socket, this.mayMeet);
    } catch (error) {
      const e = error instanceof AppError ? error : unavailable();
      this.send({ k: "reply", to: m.i, r: m.r, e: [e.status, e.code, e.message] });
      return;
    }
    if (!pairing) return this.send({ k: "reply", to: m.i, r: m.r });
    this.announce(pairing, m.r);
  }

  /** Tells both instances; the searcher's (offerer's) answer is its pairing message. */
  private announce(pairing: Pairing, replyTo: number): void {
    this.pairsFormed += 1;
    const { session } = pairing;
    const side = (me: Pairing["offerer"], other: Pairing["offerer"], offerer: boolean): Msg => {
      const mine = me.socket as Far;
      const theirs = other.socket as Far;
      return {
        k: "pair", to: mine.instance, u: me.profile.userId, r: mine.req, reply: offerer && replyTo !== 0,
        id: session.id, a: session.a, b: session.b, at: session.startedAt,
        p: bare(other.profile), pi: theirs.instance, ps: theirs.id, o: offerer, sh: pairing.sharedInterests,
      };
    };
    // The answerer first, as on one process.
    this.send(side(pairing.answerer, pairing.offerer, false));
    this.send(side(pairing.offerer, pairing.answerer, true));
  }

  // ---- the bus ----

  /** Messages leave together once per event-loop turn: one publish for many searches and replies. */
  private send(m: Msg): void {
    if (this.closed) return;
    this.out.push(m);
    if (this.flushing) return;
    this.flushing = true;
    setImmediate(() => this.flush());
  }

  private flush(): void {
    this.flushing = false;
    const out = this.out;
    this.out = [];
    if (this.closed) return;
    for (let i = 0; i < out.length; i += BATCH_MAX) this.ports.bus.publish(TOPIC, i === 0 && out.length <= BATCH_MAX ? out : out.slice(i, i + BATCH_MAX));
  }
}

export type { Session };
