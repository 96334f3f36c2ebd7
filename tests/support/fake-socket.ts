// A ClientSocket without a connection, for unit tests of the hub, the roulette queue and the
// socket groups: it records what the server sent it and the code it was closed with.
import type { ClientSocket } from "../../src/realtime/socket.ts";

export interface FakeSocket extends ClientSocket {
  /** Closed with this code, once the hub closed it. */
  closedWith?: number;
}

let made = 0;

/** `heard` collects every text sent to it; `address` is the client address (for the per-address cap). */
export function fakeSocket(userId: number, options: { id?: string; address?: string; heard?: string[] } = {}): FakeSocket {
  const heard = options.heard;
  const socket: FakeSocket = {
    id: options.id ?? `fake-${++made}`,
    userId,
    sessionId: `session-${userId}`,
    address: options.address ?? "10.0.0.1",
    present: true,
    lastHeardAt: 0,
    sendText: (text) => void heard?.push(text),
    close(code) {
      socket.closedWith = code;
    },
  };
  return socket;
}
