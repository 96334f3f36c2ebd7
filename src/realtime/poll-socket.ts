// One long-polling session seen as a ClientSocket (the fallback when a WebSocket cannot be opened,
// spec §7): the hub, presence and handlers send to it and close it exactly as they do a /ws
// socket. Frames wait in a capped outbox until a poll collects them. When the client's WebSocket
// opens later with `?resume=<sid>`, the same object keeps its place in the hub (its calls, roulette
// place and presence) and sends through the WebSocket from then on: nothing is lost or sent twice.
import { sendOrQueue, sendQueued, type CorkableSocket } from "./outbox.ts";
import type { ClientSocket } from "./socket.ts";

export interface RawWebSocket extends CorkableSocket {
  close(code?: number, reason?: string): void;
}

/** A held poll: answered once, with the frames (JSON texts) and, when it is the last, why. */
export type PollAnswer = (frames: string[], end: PollEnd | null) => void;

/** Why a session ended: a close code as a /ws socket would have been closed with, or `moved` to a WebSocket. */
export interface PollEnd {
  code: number;
  reason: string;
}

/** Closed with this when its WebSocket took over (not a failure: the client moves on). */
export const MOVED: PollEnd = { code: 4000, reason: "Moved to WebSocket" };

export class PollSocket implements ClientSocket {
  present = true;
  lastHeardAt = Date.now();
  /** When a poll last collected frames or was held: nobody collecting for the idle time ends it. */
  collectedAt = Date.now();
  closing = false;
  /** Set once ended: what a later poll is told. */
  ended: PollEnd | null = null;
  private outbox: string[] = [];
  private outboxBytes = 0;
  private held: PollAnswer | null = null;
  /** The WebSocket that took over, if one did. */
  private raw: RawWebSocket | null = null;

  constructor(
    readonly id: string,
    readonly sid: string,
    readonly userId: number,
    readonly sessionId: string,
    readonly address: string,
    readonly deviceId: string | null,
    private readonly outboxCap: number,
    /** Called once when the session ends while still polling: unregister it and disconnect it from the hub. */
    private readonly onEnd: (socket: PollSocket) => void,
  ) {}

  get polling(): boolean {
    return this.raw === null;
  }

  /** Still polling and open: a WebSocket may take it over. */
  get movable(): boolean {
    return this.raw === null && !this.closing;
  }

  get holding(): boolean {
    return this.held !== null;
  }

  sendText(text: string): void {
    if (this.raw) return sendOrQueue(this.raw, text);
    if (this.ended) return;
    this.outbox.push(text);
    // Characters, not bytes: frames are mostly ASCII JSON, and counting is free this way.
    this.outboxBytes += text.length;
    // Like a /ws reader that stopped reading (Bun's backpressure limit): closed, not buffered on.
    // What waited is dropped with it: the client reconnects and catches up from the API.
    if (this.outboxBytes > this.outboxCap) {
      this.takeOutbox();
      return this.close(1008, "Too many frames waiting to be collected");
    }
    if (this.held) queueMicrotask(() => this.flush());
  }

  close(code: number, reason: string): void {
    if (this.closing) return;
    this.closing = true;
    if (this.raw) {
      sendQueued(this.raw);
      return this.raw.close(code, reason);
    }
    // A ban's notice and the like are already in the outbox: the last poll still gets them.
    this.end({ code, reason });
  }

  /**
   * A poll arrives: answered now if frames wait or the session ended, else held until a frame
   * comes or `holdMs` passes. One poll at a time: an earlier one still held is answered empty.
   */
  poll(answer: PollAnswer, holdMs: number): void {
    this.collectedAt = Date.now();
    this.held?.([], null);
    this.held = answer;
    if (this.outbox.length > 0 || this.ended) return this.flush();
    const timer = setTimeout(() => {
      if (this.held !== answer) return;
      this.collectedAt = Date.now();
      this.flush();
    }, holdMs);
    timer.unref?.();
  }

  /** The poll request went away (the client aborted it): nothing to answer. */
  abandon(answer: PollAnswer): void {
    if (this.held === answer) this.held = null;
  }

  /**
   * The client's WebSocket opened with this session's id: what waits goes to the held poll (its
   * last answer, marked moved) or, with none held, first on the WebSocket, and every later frame
   * goes there. Synchronous, so no frame can fall between the two.
   */
  adopt(raw: RawWebSocket): void {
    const waiting = this.takeOutbox();
    this.raw = raw;
    this.ended = MOVED;
    if (this.held) {
      const answer = this.held;
      this.held = null;
      answer(waiting, MOVED);
    } else for (const text of waiting) sendOrQueue(raw, text);
  }

  private flush(): void {
    const answer = this.held;
    if (!answer) return;
    this.held = null;
    answer(this.takeOutbox(), this.ended);
  }

  private takeOutbox(): string[] {
    const frames = this.outbox;
    this.outbox = [];
    this.outboxBytes = 0;
    return frames;
  }

  private end(why: PollEnd): void {
    if (this.ended) return;
    this.ended = why;
    // Kept for the idle time from now, so a late poll still hears why.
    this.collectedAt = Date.now();
    this.flush();
    this.onEnd(this);
  }
}
