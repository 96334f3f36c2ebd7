// Adapts the peerjs library to PeerLike. This module is the only one that imports peerjs, and
// only the lazily loaded call overlay imports it, so the library reaches the browser only when
// a call starts.
import { Peer, type MediaConnection } from "peerjs";
import type { CallPeerOptions } from "./peer-config.ts";
import type { MediaCallLike, PeerFailure, PeerLike } from "./ports.ts";

function failure(error: { type?: unknown; message?: unknown }): PeerFailure {
  return { type: typeof error.type === "string" ? error.type : "unknown", message: String(error.message ?? "") };
}

function wrapCall(call: MediaConnection): MediaCallLike {
  return {
    get peer() {
      return call.peer;
    },
    get peerConnection() {
      return call.peerConnection ?? null;
    },
    onStream: (handler) => void call.on("stream", handler),
    onClose: (handler) => void call.on("close", handler),
    onError: (handler) => void call.on("error", (error) => handler(failure(error))),
    answer: (stream) => call.answer(stream),
    close: () => call.close(),
  };
}

export function createPeerJsPeer(options: CallPeerOptions): PeerLike {
  // No id: the server hands out a random one, so a peer id says nothing about who holds it.
  const peer = new Peer(options);
  return {
    get id() {
      return peer.id ?? null;
    },
    get destroyed() {
      return peer.destroyed;
    },
    get disconnected() {
      return peer.disconnected;
    },
    onOpen: (handler) => void peer.on("open", handler),
    onCall: (handler) => void peer.on("call", (call) => handler(wrapCall(call))),
    onError: (handler) => void peer.on("error", (error) => handler(failure(error))),
    call: (peerId, stream) => wrapCall(peer.call(peerId, stream)),
    reconnect: () => peer.reconnect(),
    destroy: () => peer.destroy(),
  };
}
