// Bytes of upload bodies being received right now, over everyone and per user. Bodies are
// spooled to disk, so this bounds the spool and the buffers between socket and disk; past it
// an upload is refused with 503 before it is read, and the client tries again shortly.
import { busy } from "../http/errors.ts";

const RETRY_SECONDS = 5;

export class InFlight {
  private total = 0;
  private readonly byUser = new Map<number, number>();

  constructor(
    readonly maxTotal: number,
    readonly maxPerUser: number,
  ) {}

  /** Counts `bytes` for the user, or throws 503 busy (nothing counted) when a bound would pass. */
  take(userId: number, bytes: number): void {
    const mine = this.byUser.get(userId) ?? 0;
    if (mine + bytes > this.maxPerUser) {
      throw busy("You are already sending as much as one person can at once. Please wait for your other uploads to finish.", RETRY_SECONDS);
    }
    if (this.total + bytes > this.maxTotal) {
      throw busy("The server is receiving many uploads right now. Please try again in a few seconds.", RETRY_SECONDS);
    }
    this.total += bytes;
    this.byUser.set(userId, mine + bytes);
  }

  give(userId: number, bytes: number): void {
    this.total -= bytes;
    const left = (this.byUser.get(userId) ?? 0) - bytes;
    if (left > 0) this.byUser.set(userId, left);
    else this.byUser.delete(userId);
  }

  get bytes(): number {
    return this.total;
  }
}
