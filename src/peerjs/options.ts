// The signalling server's settings, with peer 1.0.2's defaults. Tests shorten the timings.

export interface PeerOptions {
  /** The `key` the client must send; the browser client's default is "peerjs". */
  key: string;
  /** A message queued for an absent peer is answered with EXPIRE after this long. */
  expireTimeoutMs: number;
  /** How often queues are checked for expiry (peer's `cleanup_out_msgs`). */
  cleanupIntervalMs: number;
  /** A client that sends no HEARTBEAT for this long is dropped (the browser sends one every 5 s). */
  aliveTimeoutMs: number;
  /** How often silent clients are looked for (peer's fixed 300 ms). */
  aliveCheckIntervalMs: number;
  /** Clients at once; past it a new one gets an ERROR. */
  concurrentLimit: number;
}

export const DEFAULT_PEER_OPTIONS: PeerOptions = {
  key: "peerjs",
  expireTimeoutMs: 5000,
  cleanupIntervalMs: 1000,
  aliveTimeoutMs: 90_000,
  aliveCheckIntervalMs: 300,
  concurrentLimit: 5000,
};
