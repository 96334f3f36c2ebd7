// The PeerJS signalling protocol as `peer` 1.0.2 speaks it: message types, error texts and the
// shapes of every frame, typed once. The browser's `peerjs` client reads these exact strings.

export const MessageType = {
  OPEN: "OPEN",
  LEAVE: "LEAVE",
  CANDIDATE: "CANDIDATE",
  OFFER: "OFFER",
  ANSWER: "ANSWER",
  EXPIRE: "EXPIRE",
  HEARTBEAT: "HEARTBEAT",
  ID_TAKEN: "ID-TAKEN",
  ERROR: "ERROR",
} as const;

/** peer's `Errors` enum, word for word. */
export const PeerErrorText = {
  INVALID_KEY: "Invalid key provided",
  INVALID_WS_PARAMETERS: "No id, token, or key supplied to websocket server",
  CONNECTION_LIMIT_EXCEED: "Server has reached its concurrent user limit",
} as const;

export const ID_TAKEN_TEXT = "ID is taken";

/** What peer answers on GET <path>. */
export const SERVER_INFO = {
  name: "PeerJS Server",
  description: "A server side element to broker connections between PeerJS clients.",
  website: "https://peerjs.com/",
} as const;

export type PeerId = string;

/** Types a client may send that the server passes on to another client. */
export const RELAYED_TYPES = [MessageType.OFFER, MessageType.ANSWER, MessageType.CANDIDATE, MessageType.LEAVE, MessageType.EXPIRE] as const;
export type RelayedType = (typeof RELAYED_TYPES)[number];

/**
 * A relayed frame. `src` is always set by the server; key order matters because the frame is
 * sent as `JSON.stringify` of this object, exactly as peer builds it.
 */
export interface RelayedMessage {
  type: RelayedType;
  src: PeerId;
  dst?: PeerId;
  payload?: unknown;
}

export type ClientMessage =
  | { type: typeof MessageType.HEARTBEAT }
  | { type: RelayedType; dst?: PeerId; payload?: unknown };

export type ServerMessage =
  | { type: typeof MessageType.OPEN }
  | { type: typeof MessageType.ERROR | typeof MessageType.ID_TAKEN; payload: { msg: string } }
  | RelayedMessage;

const isRelayedType = (type: unknown): type is RelayedType => RELAYED_TYPES.some((t) => t === type);

/** Peer tells "no destination" by truthiness, so "", null, 0 and false all mean none. */
function destination(dst: unknown): PeerId | undefined | null {
  if (!dst) return undefined;
  return typeof dst === "string" ? dst : null;
}

function jsonOf(frame: unknown): unknown {
  // Elysia has already parsed frames that start with { [ or "; others arrive as text or bytes,
  // and peer parses those too (it calls JSON.parse on whatever arrived).
  const text = typeof frame === "string" ? frame : frame instanceof Uint8Array ? new TextDecoder().decode(frame) : null;
  if (text === null) return frame;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/**
 * A frame as peer would understand it, or null for what peer ignores: non-JSON, non-objects,
 * unknown types. A destination that is not a string (which peer would queue under a key no
 * client can ever have) is dropped too.
 */
export function parseClientMessage(frame: unknown): ClientMessage | null {
  const value = jsonOf(frame);
  if (typeof value !== "object" || value === null || Array.isArray(value)) return null;
  const { type, dst, payload } = value as Record<string, unknown>;
  if (type === MessageType.HEARTBEAT) return { type };
  if (!isRelayedType(type)) return null;
  const to = destination(dst);
  if (to === null) return null;
  return { type, dst: to, payload };
}
