// Roulette sessions: one per pairing, named by an opaque random id that is the only thing the
// partners learn about each other. A session keeps its text chat and the "keep in touch" presses
// while it runs and for 10 minutes after it ends (the window in which it can be reported), then
// it is forgotten. Memory is bounded: lines and characters per session, ended sessions retained,
// and the text of all ended sessions together.
import { randomBytes } from "node:crypto";
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
  lines: TextLine[];
  chars: number;
  /** Who pressed "Keep in touch". */
  readonly keep: Set<number>;
}

/** 16 random bytes, base64url: unguessable and unrelated to either user. */
const newId = (): string => randomBytes(16).toString("base64url");

export class RouletteSessions {
  private readonly sessions = new Map<string, Session>();
  /** Ended sessions in the order they ended, for the sweep; one already forgotten is skipped. */
  private readonly ended = new Fifo<Session>();
  private endedCount = 0;
  private endedChars = 0;

  constructor(private readonly now: () => number) {}

  start(a: number, b: number): Session {
    this.sweep();
    const session: Session = { id: newId(), a, b, startedAt: this.now(), endedAt: null, lines: [], chars: 0, keep: new Set() };
    this.sessions.set(session.id, session);
    return session;
  }

  end(id: string): void {
    const session = this.sessions.get(id);
    if (!session || session.endedAt !== null) return;
    session.endedAt = this.now();
    this.ended.push(session);
    this.endedCount += 1;
    this.endedChars += session.chars;
    this.sweep();
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
    session.lines.push(line);
    session.chars += line.text.length;
    while (session.lines.length > MAX_LINES || session.chars > MAX_SESSION_CHARS) {
      session.chars -= session.lines.shift()!.text.length;
    }
  }

  get size(): number {
    return this.sessions.size;
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
  }
}
