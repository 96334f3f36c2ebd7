// The call screen's state as a pure reducer (spec section 4 "Video call"): camera loading, then
// ringing (incoming for the receiver, outgoing for the caller), then connected when the remote
// stream arrives, then ended. The receiver's camera is the exception to that order (issue 7,
// consent before the camera): their phone rings with no camera at all, and Accept starts the
// camera ("Setting up camera...") before the call is answered. CallSession performs the side
// effects; this decides what is shown and which step may happen next.

import type { ConnectionKind } from "./connection-kind.ts";
export type CallRole = "caller" | "receiver";
export type CallPhase = "preparing" | "ringing" | "connecting" | "connected" | "ended";

export interface CallContact {
  id: number;
  name: string;
  /** The caller's picture on the incoming screen, when the chat knows it. */
  avatarUrl?: string | null;
}

export interface CallState {
  role: CallRole;
  contact: CallContact;
  /** The caller's PeerJS id, known to the receiver from incoming_call. */
  callerPeerId: string | null;
  phase: CallPhase;
  mediaReady: boolean;
  peerId: string | null;
  /** The receiver pressed Accept. */
  accepted: boolean;
  /** The receiver's PeerJS id, known to the caller from call_answered (the "signal"). */
  answererPeerId: string | null;
  remoteStreamId: string | null;
  muted: boolean;
  cameraOff: boolean;
  /** A passing status under the controls, such as a reconnect in progress. */
  notice: string | null;
  /** Relayed or direct, from the media connection's own statistics; null until known. */
  connectionKind: ConnectionKind | null;
}

export type CallAction =
  | { type: "media_ready" }
  | { type: "peer_open"; peerId: string }
  | { type: "accepted" }
  | { type: "answered"; answererPeerId: string }
  | { type: "remote_stream"; streamId: string }
  | { type: "toggle_mute" }
  | { type: "toggle_camera" }
  | { type: "notice"; text: string | null }
  | { type: "connection_kind"; kind: ConnectionKind }
  | { type: "ended" };

export type CallRequest =
  | { role: "caller"; contact: CallContact }
  | { role: "receiver"; contact: CallContact; callerPeerId: string };

export function initialCallState(request: CallRequest): CallState {
  return {
    role: request.role,
    contact: request.contact,
    callerPeerId: request.role === "receiver" ? request.callerPeerId : null,
    phase: "preparing",
    mediaReady: false,
    peerId: null,
    accepted: false,
    answererPeerId: null,
    remoteStreamId: null,
    muted: false,
    cameraOff: false,
    notice: null,
    connectionKind: null,
  };
}

/**
 * The call may ring: the caller needs camera, peer and peer id; the receiver only the peer and
 * its id, because their camera waits for Accept.
 */
export function isReady(state: CallState): boolean {
  return (state.role === "receiver" || state.mediaReady) && state.peerId !== null;
}

/** Leaves camera loading once everything is ready: ringing, or after Accept, connecting. */
function settle(state: CallState): CallState {
  if (state.phase !== "preparing") return state;
  if (state.accepted) return state.mediaReady ? { ...state, phase: "connecting" } : state;
  return isReady(state) ? { ...state, phase: "ringing" } : state;
}

export function callReducer(state: CallState, action: CallAction): CallState {
  if (state.phase === "ended") return state;
  switch (action.type) {
    case "media_ready":
      return settle({ ...state, mediaReady: true });
    case "peer_open":
      return settle({ ...state, peerId: action.peerId });
    case "accepted":
      if (state.role !== "receiver" || state.phase !== "ringing") return state;
      // Back to camera loading: Accept is what starts the camera.
      return settle({ ...state, accepted: true, phase: "preparing" });
    case "answered":
      if (state.role !== "caller" || state.phase === "preparing") return state;
      return { ...state, answererPeerId: action.answererPeerId, phase: state.phase === "ringing" ? "connecting" : state.phase };
    case "remote_stream":
      if (state.remoteStreamId === action.streamId || state.phase === "preparing") return state;
      if (state.role === "receiver" && !state.accepted) return state;
      return { ...state, remoteStreamId: action.streamId, phase: "connected", notice: null };
    case "toggle_mute":
      return { ...state, muted: !state.muted };
    case "toggle_camera":
      return { ...state, cameraOff: !state.cameraOff };
    case "notice":
      return { ...state, notice: action.text };
    case "connection_kind":
      return state.connectionKind === action.kind ? state : { ...state, connectionKind: action.kind };
    case "ended":
      return { ...state, phase: "ended" };
  }
}

/** The screen the overlay shows for a state. */
export type CallScreen = "setup" | "incoming" | "outgoing" | "connected";

export function screenFor(state: CallState): CallScreen {
  if (state.phase === "preparing") return "setup";
  if (state.phase === "ringing") return state.role === "receiver" ? "incoming" : "outgoing";
  // Connecting shows the in-call layout with the local preview while the remote video starts.
  return "connected";
}
