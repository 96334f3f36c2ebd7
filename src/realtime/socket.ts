// What the hub needs from a connection. Bun's ServerWebSocket is wrapped in one of these
// (realtime/index.ts); tests use a plain object, so the hub runs without a server.
export interface ClientSocket {
  readonly id: string;
  readonly userId: number;
  readonly sessionId: string;
  /** The client address the upgrade came from (for the per-address socket cap). */
  readonly address: string;
  /** The device (`did` cookie, else the session's) the upgrade came from: roulette places per device. */
  readonly deviceId?: string | null;
  /** False after `user_logout`: the socket stays open but no longer counts for presence. */
  present: boolean;
  lastHeardAt: number;
  sendText(text: string): void;
  close(code: number, reason: string): void;
}
