// What the server does with each client message, dispatched through one map as peer's
// handlersRegistry does: HEARTBEAT keeps a client alive, everything else is relayed.
import { type ClientMessage, MessageType, type RelayedMessage, type RelayedType } from "./protocol.ts";
import type { PeerClient, PeerRegistry } from "./registry.ts";
import { relayOnlyPeerPayload } from "../ice/filter.ts";

/**
 * Sends `message` to its destination. An absent destination (or one kept apart from `userId` by a
 * block) gets it queued, charged to `userId`
 * who sent it (except LEAVE and EXPIRE, which only matter to someone connected); when a queue
 * bound refuses it, the sender is answered EXPIRE at once, as if it had waited in vain. A
 * destination whose socket can no longer take it is closed and the sender told it LEFT.
 */
export function relay(registry: PeerRegistry, message: RelayedMessage, userId: number, now = Date.now()): void {
  const { type, src, dst } = message;
  // A peer kept apart from the sender by a block is absent to them (issue 18): their messages
  // wait in its queue, which it is never given, and expire as for a peer that never came.
  const target = dst === undefined ? undefined : registry.reachable(dst, userId);
  if (target && dst !== undefined) {
    if (target.socket.send(JSON.stringify(message))) return;
    // Peer waits for the close event to forget the target; forgetting it now also stops a
    // LEAVE bouncing forever between two dead sockets (Bun reports failure, ws did not).
    registry.remove(target);
    target.socket.close();
    relay(registry, { type: MessageType.LEAVE, src: dst, dst: src }, userId, now);
    return;
  }
  if (type !== MessageType.LEAVE && type !== MessageType.EXPIRE && dst !== undefined) {
    if (!registry.enqueue(dst, message, userId, now)) relay(registry, { type: MessageType.EXPIRE, src: dst, dst: src }, userId, now);
  } else if (type === MessageType.LEAVE && dst === undefined) {
    // A LEAVE addressed to nobody is the client saying goodbye: its id is free at once.
    const sender = registry.get(src);
    if (sender) registry.remove(sender);
  }
}

type Handler<M extends ClientMessage> = (registry: PeerRegistry, client: PeerClient, message: M, now: number) => void;
type HandlerMap = { [T in ClientMessage["type"]]: Handler<Extract<ClientMessage, { type: T }>> };

const heartbeat: Handler<{ type: typeof MessageType.HEARTBEAT }> = (_registry, client, _message, now) => {
  client.lastPing = now;
};

/**
 * The message a client's OFFER, ANSWER, CANDIDATE, LEAVE or EXPIRE becomes, or null when it is
 * dropped. Under ICE_TRANSPORT_POLICY=relay no address but the relay's is passed on
 * (ice/filter.ts); a message that cannot be made so is dropped, as peer drops what it cannot
 * parse. Shared by both engines (engine.ts).
 */
export function outgoing(relayOnly: boolean, client: PeerClient, message: { type: RelayedType; dst?: string; payload?: unknown }): RelayedMessage | null {
  let payload = message.payload;
  if (relayOnly && (message.type === MessageType.OFFER || message.type === MessageType.ANSWER || message.type === MessageType.CANDIDATE)) {
    const filtered = relayOnlyPeerPayload(message.type, payload);
    if (filtered === null) return null;
    payload = filtered;
  }
  // Built field by field in peer's order; `src` is the sender's own id, never the client's word.
  return { type: message.type, src: client.id, dst: message.dst, payload };
}

const transmit: Handler<{ type: RelayedType; dst?: string; payload?: unknown }> = (registry, client, message, now) => {
  const built = outgoing(registry.relayOnly, client, message);
  if (built) relay(registry, built, client.owner.userId, now);
};

const handlers: HandlerMap = {
  [MessageType.HEARTBEAT]: heartbeat,
  [MessageType.OFFER]: transmit,
  [MessageType.ANSWER]: transmit,
  [MessageType.CANDIDATE]: transmit,
  [MessageType.LEAVE]: transmit,
  [MessageType.EXPIRE]: transmit,
};

export function handleMessage(registry: PeerRegistry, client: PeerClient, message: ClientMessage, now = Date.now()): void {
  // The map pairs each type with its handler; TypeScript cannot correlate the two on lookup.
  const handler = handlers[message.type] as Handler<ClientMessage>;
  handler(registry, client, message, now);
}

/** The "user" behind what the server itself sends; such messages are never queued. */
export const SERVER = 0;

/** Answers each sender of expired queued messages with one EXPIRE per destination. */
export function expireQueued(registry: PeerRegistry, expired: RelayedMessage[], now = Date.now()): void {
  const seen = new Set<string>();
  for (const message of expired) {
    if (message.dst === undefined) continue;
    const pair = `${message.src}_${message.dst}`;
    if (seen.has(pair)) continue;
    seen.add(pair);
    // Never queued (EXPIRE), so charged to nobody.
    relay(registry, { type: MessageType.EXPIRE, src: message.dst, dst: message.src }, SERVER, now);
  }
}
