// A peer socket without a server, for the signalling core's unit tests: it keeps what was sent
// (parsed) and can be made to refuse every send, as a dead connection does.
import type { PeerSocket } from "../../src/peerjs/registry.ts";

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
