// The signalling server's settings: peer 1.0.2's defaults for its timings, and our bounds on what
// one session, one account or one address may hold (peer has none). Tests shorten the timings.

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
  /** Clients at once; past it a new one gets peer's ERROR. */
  concurrentLimit: number;
  /** Peers one signed-in session (one browser) may hold at once (API.md: 4, `PEER_CAP`). */
  maxPeersPerSession: number;
  /** Peers one account may hold over all its sessions: signing in again buys no more. */
  maxPeersPerUser: number;
  /** Peers from one client address over all its accounts. */
  maxPeersPerAddress: number;
  /** Messages waiting for one absent id; a message past it is answered with EXPIRE. */
  maxQueuedPerPeer: number;
  /** Bytes one user may have waiting for absent ids, counted as the frames would be sent. */
  maxQueuedBytesPerUser: number;
  /** Bytes waiting for absent ids in all, whoever sent them. */
  maxQueuedBytes: number;
}

export const DEFAULT_PEER_OPTIONS: PeerOptions = {
  key: "peerjs",
  expireTimeoutMs: 5000,
  cleanupIntervalMs: 1000,
  aliveTimeoutMs: 90_000,
  aliveCheckIntervalMs: 300,
  concurrentLimit: 5000,
  maxPeersPerSession: 4,
  maxPeersPerUser: 10,
  maxPeersPerAddress: 50,
  maxQueuedPerPeer: 16,
  maxQueuedBytesPerUser: 512 * 1024,
  maxQueuedBytes: 8 * 1024 * 1024,
};
