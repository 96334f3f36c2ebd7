// Roulette sessions: one per pairing, named by an opaque random id that is the only thing the
// partners learn about each other. A session keeps its text chat and the "keep in touch" presses
// while it runs and for 10 minutes after it ends (the window in which it can be reported), then
// it is forgotten. Memory is bounded: lines and characters per session, ended sessions retained,
// and the text of all ended sessions together. When a store records it (persist.ts), the
// sessions changed and forgotten since its last write are noted for it, so that a restart keeps
// them: a Set add per change, no database work on the pairing or text path.
import { Fifo } from "./fifo.ts";

/** How long an ended session can still be reported (and its text read into the report). */
export const SESSION_RETAIN_MS = 10 * 60_000;
const MAX_LINES = 200;
const MAX_SESSION_CHARS = 20_000;
export const MAX_ENDED_SESSIONS = 20_000;
export const MAX_ENDED_CHARS = 20_000_000;

export interface TextLine {
  senderId: number;
  text: string;
  at: number;
}

export interface Session {
  readonly id: string;
  /** The two participants' user ids: server-side only, never sent to either. */
  readonly a: number;
  readonly b: number;
  readonly startedAt: number;
  endedAt: number | null;
  /** The text chat, newest last; most pairings never write, so it is a shared empty line until the first. */
  lines: readonly TextLine[];
  chars: number;
  /** Who pressed "Keep in touch": KEEP_A for `a`, KEEP_B for `b`. */
  keep: number;
  /** The store's row for it, 0 for none yet (forgetting a saved session deletes its row). */
  row: number;
}

/** What changed since a store last wrote: sessions to write as they are now, rows to delete. */
export interface SessionChanges {
  changed: Session[];
  gone: number[];
}

export const KEEP_A = 1;
export const KEEP_B = 2;

const NO_LINES: readonly TextLine[] = Object.freeze([]);

const ID_BYTES = 16;
/** Random bytes for 256 ids, refilled when used up: one call into the CSPRNG per 256 pairings rather than per pairing. */
const idPool = Buffer.allocUnsafe(ID_BYTES * 256);
let idAt = idPool.length;

/** 16 random bytes, base64url: unguessable and unrelated to either user. Each byte of the pool serves one id only. */
function newId(): string {
  if (idAt === idPool.length) {
    crypto.getRandomValues(idPool);
    idAt = 0;
  }
  const id = idPool.toString("base64url", idAt, idAt + ID_BYTES);
  idAt += ID_BYTES;
  return id;
}

export class RouletteSessions {
  private readonly sessions = new Map<string, Session>();
  /** Ended sessions in the order they ended, for the sweep; one already forgotten is skipped. */
  private readonly ended = new Fifo<Session>();
  private endedCount = 0;
  private endedChars = 0;
  /** Kept only while a store records: without one nothing would ever empty them. */
  private dirty: Set<Session> | null = null;
  private gone: number[] = [];

  constructor(private readonly now: () => number) {}

  /** Ending sweeps, and nothing expires without an end first, so starting need not. */
  start(a: number, b: number): Session {
    const session: Session = { id: newId(), a, b, startedAt: this.now(), endedAt: null, lines: NO_LINES, chars: 0, keep: 0, row: 0 };
    this.sessions.set(session.id, session);
    this.dirty?.add(session);
    return session;
  }

  /**
   * This instance's copy of a session another instance's matchmaker started (cluster.ts): the
   * same id and times, so reports and blocks by pairing id work wherever each partner is.
   */
  adopt(id: string, a: number, b: number, startedAt: number): Session {
    const known = this.sessions.get(id);
    if (known) return known;
    const session: Session = { id, a, b, startedAt, endedAt: null, lines: NO_LINES, chars: 0, keep: 0, row: 0 };
    this.sessions.set(id, session);
    this.dirty?.add(session);
    return session;
  }

  /** The session as its pair holds it, so no lookup by id: a running one is always in the map (only ended ones are forgotten). */
  end(session: Session): void {
    if (session.endedAt !== null) return;
    session.endedAt = this.now();
    this.dirty?.add(session);
    this.retain(session);
    this.sweep();
  }

  /** An ended session joins the ones kept for their 10 minutes, within the budgets. */
  private retain(session: Session): void {
    this.ended.push(session);
    this.endedCount += 1;
    this.endedChars += session.chars;
  }

  /** A session that runs, or ended less than SESSION_RETAIN_MS ago. */
  find(id: string): Session | undefined {
    const session = this.sessions.get(id);
    if (!session) return undefined;
    if (session.endedAt !== null && this.now() - session.endedAt >= SESSION_RETAIN_MS) {
      this.forget(id);
      return undefined;
    }
    return session;
  }

  /** The other participant, if `userId` took part in the (current or recent) session `id`. */
  strangerOf(id: string, userId: number): number | undefined {
    const session = this.find(id);
    if (!session) return undefined;
    if (session.a === userId) return session.b;
    if (session.b === userId) return session.a;
    return undefined;
  }

  /** Keeps the newest lines of a running session within the per-session caps. */
  addLine(session: Session, line: TextLine): void {
    const lines = session.lines === NO_LINES ? (session.lines = [] as TextLine[]) : (session.lines as TextLine[]);
    lines.push(line);
    session.chars += line.text.length;
    this.dirty?.add(session);
    while (lines.length > MAX_LINES || session.chars > MAX_SESSION_CHARS) {
      session.chars -= lines.shift()!.text.length;
    }
  }

  get size(): number {
    return this.sessions.size;
  }

  /** Whether `session` is still remembered (not forgotten since the caller got it). */
  holds(session: Session): boolean {
    return this.sessions.get(session.id) === session;
  }

  /** From now on changes are noted for a store (persist.ts), which must take them regularly. */
  record(): void {
    this.dirty ??= new Set(this.sessions.values());
  }

  /** The changes since the last call. The store sets `row` on what it wrote, or gives them back. */
  takeChanges(): SessionChanges {
    if (!this.dirty || (this.dirty.size === 0 && this.gone.length === 0)) return { changed: [], gone: [] };
    const changes = { changed: [...this.dirty], gone: this.gone };
    this.dirty.clear();
    this.gone = [];
    return changes;
  }

  /** Changes a store failed to write, noted again for its next try (those forgotten meanwhile are not). */
  giveBack(changes: SessionChanges): void {
    for (const session of changes.changed) if (this.holds(session)) this.dirty?.add(session);
    this.gone.push(...changes.gone);
  }

  /**
   * Sessions read back at start-up, ended oldest first, as running ones at the end: no pair runs
   * after a restart, so those end now (their 10 minutes count from when the server is back).
   * Then the usual sweep applies the retention and the budgets.
   */
  restore(sessions: readonly Session[]): void {
    for (const session of sessions) {
      if (this.sessions.has(session.id)) continue;
      this.sessions.set(session.id, session);
      if (session.endedAt === null) {
        session.endedAt = this.now();
        this.dirty?.add(session);
      }
      this.retain(session);
    }
    this.sweep();
  }

  /** Drops expired sessions, then the oldest ended ones past the count and text budgets. */
  private sweep(): void {
    const now = this.now();
    for (let oldest = this.ended.peek(); oldest; oldest = this.ended.peek()) {
      const overBudget = this.endedCount > MAX_ENDED_SESSIONS || this.endedChars > MAX_ENDED_CHARS;
      if (now - oldest.endedAt! < SESSION_RETAIN_MS && !overBudget) break;
      this.ended.shift();
      this.forget(oldest.id);
    }
  }

  private forget(id: string): void {
    const session = this.sessions.get(id);
    if (!session) return;
    if (session.endedAt !== null) {
      this.endedCount -= 1;
      this.endedChars -= session.chars;
    }
    this.sessions.delete(id);
    if (this.dirty) {
      this.dirty.delete(session);
      if (session.row !== 0) this.gone.push(session.row);
    }
  }
}

/**
 * Several instances (cluster.ts): the sessions whose partners are on this instance, as above
 * (these are persisted), and copies of every other instance's sessions in `others` (not persisted:
 * a partner's instance writes them), so that a report or a stranger block by pairing id, which may
 * reach any instance, finds the session and its lines.
 */
export class ClusterSessions extends RouletteSessions {
  readonly others: RouletteSessions;

  constructor(now: () => number) {
    super(now);
    this.others = new RouletteSessions(now);
  }

  override find(id: string): Session | undefined {
    return super.find(id) ?? this.others.find(id);
  }
}
