// The narrow shapes CallSession talks to: the realtime socket, a PeerJS peer and its media
// connections. peerjs-peer.ts adapts the real library; tests hand in fakes.
import type { ClientEvents, ServerEvents } from "../../src/realtime/protocol.ts";

/** `error` carries a refused call_user (adult_confirmation_required, rate_limited). */
export type CallServerEvent = "incoming_call" | "call_answered" | "call_rejected" | "call_ended" | "error";
export type CallClientEvent = "call_user" | "answer_call" | "reject_call" | "end_call";

export interface CallSocket {
  on<K extends CallServerEvent>(event: K, handler: (data: ServerEvents[K]) => void): () => void;
  send<K extends CallClientEvent>(event: K, data: ClientEvents[K]): boolean;
}

/** A PeerJS error: `type` is one of the library's error types. */
export interface PeerFailure {
  type: string;
  message: string;
}

export interface MediaCallLike {
  /** The remote peer's id. */
  readonly peer: string;
  readonly peerConnection: RTCPeerConnection | null;
  onStream(handler: (stream: MediaStream) => void): void;
  onClose(handler: () => void): void;
  onError(handler: (error: PeerFailure) => void): void;
  answer(stream: MediaStream): void;
  close(): void;
}

export interface PeerLike {
  readonly id: string | null;
  readonly destroyed: boolean;
  readonly disconnected: boolean;
  onOpen(handler: (id: string) => void): void;
  onCall(handler: (call: MediaCallLike) => void): void;
  onError(handler: (error: PeerFailure) => void): void;
  call(peerId: string, stream: MediaStream): MediaCallLike;
  reconnect(): void;
  destroy(): void;
}

/** The tone player as the session uses it (media/tones.ts). */
export interface TonesLike {
  play(name: "ringtone" | "outgoing" | "connected" | "ended"): void;
  stop(): void;
  playThenClose(name: "ended"): void;
  close(): void;
}
