// The open long-polling sessions of this process, by their session id (`sid`), and the sweep that
// ends those nobody collects. A sid is a random 144-bit name, yet never enough alone: every request
// for it must carry the bearer token of the session that opened it (poll-routes.ts).
//
// Multi-instance (issue 23): a sid lives in this process's memory, so its polls and sends must
// reach this instance (the sid's prefix can name the instance for the balancer), or the outbox
// must move to Redis. See DECISIONS "Issue 19: polling fallback".
import { randomBytes } from "node:crypto";
import { PollSocket } from "./poll-socket.ts";

export interface PollOwner {
  userId: number;
  sessionId: string;
  address: string;
  deviceId: string | null;
}

let lastPollId = 0;

export class PollSessions {
  private readonly bySid = new Map<string, PollSocket>();
  private readonly sweep: ReturnType<typeof setInterval>;

  constructor(
    private readonly idleMs: number,
    private readonly outboxCap: number,
    /** A session that ended while polling leaves the hub here. */
    private readonly onEnd: (socket: PollSocket) => void,
  ) {
    this.sweep = setInterval(() => this.expire(Date.now()), Math.min(5000, idleMs / 3));
    this.sweep.unref?.();
  }

  open(owner: PollOwner): PollSocket {
    const sid = randomBytes(18).toString("base64url");
    // "p" keeps these ids apart from the /ws sockets' numbers: calls compare socket ids.
    const socket = new PollSocket(`p${++lastPollId}`, sid, owner.userId, owner.sessionId, owner.address, owner.deviceId, this.outboxCap, (s) => this.onEnd(s));
    this.bySid.set(sid, socket);
    return socket;
  }

  /** The session behind a sid, only for the auth session that opened it. */
  find(sid: unknown, sessionId: string): PollSocket | null {
    if (typeof sid !== "string") return null;
    const socket = this.bySid.get(sid);
    return socket && socket.sessionId === sessionId ? socket : null;
  }

  get size(): number {
    return this.bySid.size;
  }

  stop(): void {
    clearInterval(this.sweep);
  }

  /**
   * A session whose polls stopped coming for the idle time is closed like a silent /ws socket
   * (4408); an ended one is kept that long for its last poll (to tell the close code), then dropped.
   */
  private expire(now: number): void {
    const cutoff = now - this.idleMs;
    for (const socket of [...this.bySid.values()]) {
      if (socket.holding || socket.collectedAt >= cutoff) continue;
      if (socket.ended) this.bySid.delete(socket.sid);
      else socket.close(4408, "Idle timeout");
    }
  }
}
