// A peer socket's life, as peer's WebSocketServer runs it: the checks on connect (in peer's
// order), OPEN and the queued messages, frames in, and forgetting the client on close.
import { capRefusal } from "./caps.ts";
import { handleMessage, relay } from "./messages.ts";
import type { PeerOptions } from "./options.ts";
import { ID_TAKEN_TEXT, MessageType, parseClientMessage, PeerErrorText, type ServerMessage } from "./protocol.ts";
import type { PeerClient, PeerOwner, PeerRegistry, PeerSocket } from "./registry.ts";

export interface ConnectParams {
  id: string | null;
  token: string | null;
  key: string | null;
}

function send(socket: PeerSocket, message: ServerMessage): void {
  socket.send(JSON.stringify(message));
}

function refuse(socket: PeerSocket, type: typeof MessageType.ERROR | typeof MessageType.ID_TAKEN, msg: string): null {
  send(socket, { type, payload: { msg } });
  socket.close();
  return null;
}

/** Peer reads the query with URLSearchParams and keeps the last of repeated names. */
export function connectParams(url: string): ConnectParams {
  const params = Object.fromEntries(new URL(url, "http://peerjs").searchParams.entries());
  return { id: params.id ?? null, token: params.token ?? null, key: params.key ?? null };
}

/**
 * A new socket of a signed-in user's session. Returns the client it now speaks for, or null when it was
 * refused (it has then been sent the reason and closed).
 */
export function connectPeer(
  registry: PeerRegistry,
  options: PeerOptions,
  socket: PeerSocket,
  params: ConnectParams,
  owner: PeerOwner,
  now = Date.now(),
): PeerClient | null {
  const { id, token, key } = params;
  if (!id || !token || !key) return refuse(socket, MessageType.ERROR, PeerErrorText.INVALID_WS_PARAMETERS);
  if (key !== options.key) return refuse(socket, MessageType.ERROR, PeerErrorText.INVALID_KEY);

  let client = registry.get(id);
  if (client) {
    // Same id and token is the same browser reconnecting: peer swaps the socket and sends no
    // OPEN. The user check is ours: a leaked token alone does not hand an id to someone else.
    // A takeover is not a new peer, so the caps do not apply to it.
    if (token !== client.token || owner.userId !== client.owner.userId) return refuse(socket, MessageType.ID_TAKEN, ID_TAKEN_TEXT);
    client.socket = socket;
  } else {
    const capped = capRefusal(registry, options, owner);
    if (capped) return refuse(socket, MessageType.ERROR, capped);
    if (registry.size >= options.concurrentLimit) return refuse(socket, MessageType.ERROR, PeerErrorText.CONNECTION_LIMIT_EXCEED);
    client = { id, token, owner, socket, lastPing: now };
    registry.add(client);
    send(socket, { type: MessageType.OPEN });
  }
  for (const { message, userId } of registry.takeQueue(id)) relay(registry, message, userId, now);
  return client;
}

/**
 * A frame from `socket`, which speaks for `client`. As in peer, a socket keeps speaking for its
 * id after a reconnect elsewhere or a LEAVE without destination; frames peer cannot parse are
 * dropped without an answer.
 */
export function peerFrame(registry: PeerRegistry, client: PeerClient, frame: unknown, now = Date.now()): void {
  const message = parseClientMessage(frame);
  if (message) handleMessage(registry, client, message, now);
}

/** The one close path: the client is forgotten if this socket was still its current one. */
export function peerClosed(registry: PeerRegistry, client: PeerClient, socket: PeerSocket): void {
  if (client.socket === socket) registry.remove(client);
}
