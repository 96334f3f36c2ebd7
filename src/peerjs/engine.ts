// The PeerJS port (STYLE.md "Two engines, one contract"): what the socket routes (index.ts) ask
// of signalling, with two implementations picked once in context.ts. `localPeerEngine` is the
// one process: today's registry, queues and sweeps (registry.ts, connection.ts, messages.ts,
// sweeps.ts), called as before, synchronously. `redisPeerEngine` (src/cluster/peerjs-redis.ts)
// keeps who holds each id, the caps' counts and the queues for absent ids in Redis, and relays
// to the instance holding the target. The routes never learn which one runs.
import { connectPeer, type ConnectParams, peerClosed, peerFrame } from "./connection.ts";
import type { PeerOptions } from "./options.ts";
import type { PeerId } from "./protocol.ts";
import { type PeerClient, type PeerOwner, PeerRegistry, type PeerSocket } from "./registry.ts";
import { startSweeps } from "./sweeps.ts";

export interface PeerEngine {
  /**
   * A new socket of a signed-in session: the client it now speaks for, or null when it was refused
   * (it has then been sent the reason and closed). The local engine answers at once.
   */
  connect(socket: PeerSocket, params: ConnectParams, owner: PeerOwner): PeerClient | null | Promise<PeerClient | null>;
  /** A frame from `socket`'s client, in the order the socket sent them. */
  frame(client: PeerClient, frame: unknown): void;
  /** The one close path: the client is let go if this socket was still its current one. */
  closed(client: PeerClient, socket: PeerSocket): void;
  /** A random id nobody holds (`GET /peerjs/:key/id`). */
  freshId(): PeerId;
  /** App stop: timers end and this instance's clients are forgotten. */
  stop(): void;
}

export interface PeerEngineSettings {
  options: PeerOptions;
  /** Whether two users are kept apart (a block either way): a peer of one is never there for the other. */
  apart: (a: number, b: number) => boolean;
  /** ICE_TRANSPORT_POLICY=relay: offers, answers and candidates keep relay addresses only. */
  relayOnly: boolean;
}

export type PeerEngineFactory = (settings: PeerEngineSettings) => PeerEngine;

/** One process: today's code, unchanged. */
export const localPeerEngine: PeerEngineFactory = ({ options, apart, relayOnly }) => {
  const registry = new PeerRegistry(options, apart);
  registry.relayOnly = relayOnly;
  const stopSweeps = startSweeps(registry, options);
  return {
    connect: (socket, params, owner) => connectPeer(registry, options, socket, params, owner),
    frame: (client, frame) => peerFrame(registry, client, frame),
    closed: (client, socket) => peerClosed(registry, client, socket),
    freshId: () => registry.freshId(),
    stop() {
      stopSweeps();
      registry.clear();
    },
  };
};
