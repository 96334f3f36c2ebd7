// Who may open another /ws socket (API.md "Rate limits"): at most SOCKET_CAP open sockets per
// user and per client address, and SOCKET_CONNECT_LIMIT new connections a minute per user, so one
// account cannot hold thousands of sockets or flap presence by reconnecting.
import { TokenBuckets } from "../http/rate-limit.ts";
import type { WindowLimit } from "../cluster/ports.ts";
import type { Hub } from "./hub.ts";

export interface Refusal {
  /** Seconds, for Retry-After. */
  retryAfter: number;
  message: string;
}

/** A socket closes whenever its tab does; this is only a hint of when to try again. */
const CAP_RETRY_SECONDS = 10;

export class Admission {
  private readonly connects: TokenBuckets;

  constructor(
    private readonly hub: Hub,
    private readonly cap: { perUser: number; perAddress: number },
    connectsPerMinute: number,
    /**
     * Several instances: SOCKET_CONNECT_LIMIT a minute per user counted over all of them (a fixed
     * window of the limits port), after this instance's own bucket. Null in one process.
     */
    readonly everywhere: WindowLimit | null = null,
  ) {
    this.connects = new TokenBuckets(connectsPerMinute / 60, connectsPerMinute);
  }

  /**
   * After admit/admitMove, with several instances: the user's new connections over every
   * instance. While Redis cannot say, this instance's own bucket holds alone (as the socket cap
   * does) rather than refusing everyone.
   */
  async admitEverywhere(userId: number): Promise<Refusal | null> {
    if (!this.everywhere) return null;
    let wait: number;
    try {
      wait = await this.everywhere.take(`user:${userId}`);
    } catch {
      return null;
    }
    return wait > 0 ? { retryAfter: Math.ceil(wait), message: "Too many new connections. Please wait a moment and try again." } : null;
  }

  /** At the upgrade: a refusal to answer with 429, or null to go ahead. */
  admit(userId: number, address: string): Refusal | null {
    if (!this.fits(userId, address)) {
      return { retryAfter: CAP_RETRY_SECONDS, message: "Too many open connections. Close another tab or window and try again." };
    }
    if (!this.connects.take(userId)) {
      return { retryAfter: this.connects.retryAfter(userId), message: "Too many new connections. Please wait a moment and try again." };
    }
    return null;
  }

  /**
   * A polling session moving to its WebSocket (poll-socket.ts adopt): it replaces a counted
   * socket, so only the connect rate applies.
   */
  admitMove(userId: number): Refusal | null {
    if (this.connects.take(userId)) return null;
    return { retryAfter: this.connects.retryAfter(userId), message: "Too many new connections. Please wait a moment and try again." };
  }

  /**
   * Checked again when the socket opens, where counting is exact: upgrades that raced past
   * `admit` together are closed with 4429.
   */
  fits(userId: number, address: string): boolean {
    return this.hub.socketCount(userId) < this.cap.perUser && this.hub.socketsAt(address) < this.cap.perAddress;
  }
}
