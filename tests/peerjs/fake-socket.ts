// A peer socket without a server, for the signalling core's unit tests: it keeps what was sent
// (parsed) and can be made to refuse every send, as a dead connection does; and who holds it.
import type { PeerOwner, PeerSocket } from "../../src/peerjs/registry.ts";

/** User `userId`'s session, from an address of its own. */
export const ownerOf = (userId: number): PeerOwner => ({ userId, sessionId: `s${userId}`, address: `10.0.0.${userId}` });

export class FakeSocket implements PeerSocket {
  sent: unknown[] = [];
  closed = false;
  constructor(private readonly alive = true) {}
  send(text: string): boolean {
    if (!this.alive || this.closed) return false;
    this.sent.push(JSON.parse(text));
    return true;
  }
  close(): void {
    this.closed = true;
  }
}
