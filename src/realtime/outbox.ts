// Corked sends for group commit. Bun corks sends made inside a socket's own `message` callback,
// but the frames of a committed batch (message_sent, new_message, message_delivered, the ack) are
// sent from the writer's turn, where each send would be its own write. While held, sends queue
// per socket and go out in one `cork` per socket at the end of the turn.

export interface CorkableSocket {
  send(data: string): unknown;
  cork?(callback: () => unknown): unknown;
}

let held = false;
const queued = new Map<CorkableSocket, string[]>();

/** Holds sends until the end of this turn (after the writer's batch and its acks). */
export function holdSends(): void {
  if (held) return;
  held = true;
  setImmediate(releaseSends);
}

/** Sends now, or queues until the release when held. */
export function sendOrQueue(raw: CorkableSocket, text: string): void {
  if (!held) {
    raw.send(text);
    return;
  }
  const list = queued.get(raw);
  if (list) list.push(text);
  else queued.set(raw, [text]);
}

/** Before a socket closes, what was queued for it goes first (a ban's notice before the close). */
export function sendQueued(raw: CorkableSocket): void {
  const list = queued.get(raw);
  if (!list) return;
  queued.delete(raw);
  if (list.length === 1 || !raw.cork) for (const text of list) raw.send(text);
  else raw.cork(() => list.forEach((text) => raw.send(text)));
}

function releaseSends(): void {
  held = false;
  for (const raw of [...queued.keys()]) sendQueued(raw);
}
