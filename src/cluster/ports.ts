// The ports behind which everything that ties the product to one process lives (STYLE.md "Two
// engines, one contract"; after Centrifuge's Broker/PresenceManager and Socket.IO's adapter).
// Each port has a `local` implementation (one process: today's in-memory behaviour, local.ts) and
// a `redis` one (several instances sharing one Redis, redis.ts); context.ts picks one set at
// start-up from REDIS_URL. Handlers use the hub and the limits and never learn which one runs.

/** Delivery to the sockets this instance holds; the hub provides it to the fan-out. */
export interface LocalDelivery {
  toUser(userId: number, text: string): void;
  toSocket(socketId: string, text: string): void;
  toAll(text: string, exceptUserId: number | undefined, hidden: ReadonlySet<number> | undefined): void;
  /** Sockets here that watch the subject's presence (`presence_watch`), but no user in `except`. */
  toWatchers(subjectId: number, text: string, except: ReadonlySet<number>): void;
}

/**
 * Frames to a user, one socket or everyone, wherever their sockets are. Frames from one instance
 * reach each other instance in the order they were sent. At most once: nothing acknowledged may
 * depend on it (messages are stored first; a client that reconnects catches up from the API).
 */
export interface FanOut {
  /** This instance, as other instances address it. */
  readonly instanceId: string;
  /** True when other instances may exist: the hub then indexes its sockets by id. */
  readonly distributed: boolean;
  attach(local: LocalDelivery): void;
  /** This instance now holds at least one socket of the user (true) or none any more (false). */
  holding(userId: number, holds: boolean): void;
  toUser(userId: number, text: string): void;
  toSocket(instanceId: string, socketId: string, text: string): void;
  toAll(text: string, exceptUserId?: number, hidden?: ReadonlySet<number>): void;
  toWatchers(subjectId: number, text: string, except: ReadonlySet<number>): void;
  /**
   * Does another instance hold a socket of the user now? (A push goes only to someone with no tab
   * open anywhere.) False on one process, and when Redis cannot answer: a push too many beats none.
   */
  heldElsewhere(userId: number): Promise<boolean>;
}

/** Told when a user's announced presence flips: on exactly one instance per change. */
export type Announce = (userId: number, online: boolean) => void;

/**
 * Presence counted over every instance: a user is online while any instance holds a present
 * socket of theirs, and goes offline a grace after the last one (presence.ts for one process).
 * A dead instance stops heartbeating and its users go offline by themselves.
 */
export interface PresencePort {
  /** Whether this instance holds a present socket of the user now (called on every change). */
  update(userId: number, presentHere: boolean): void;
  /** A ban: offline now, with no grace. */
  offlineNow(userId: number): void;
  /** Online as everyone has been told (true during the grace). */
  isAnnounced(userId: number): boolean;
  /**
   * Whether some instance holds a present socket of the user, from this instance's copy (no round
   * trip; kept by the channel the announced changes come on, so a change on another instance is
   * seen here within a Redis hop). Absent in one process (the hub's own sockets answer).
   */
  presentAnywhere?(userId: number): boolean;
  /** Users announced online now, over every instance. */
  readonly announcedCount: number;
  /** Shutting down: nothing more is announced. */
  stop(): void;
}

/**
 * `announce` runs on the one instance that made the change (it persists it and tells people);
 * `changed` runs on every instance whenever the announced count may have moved (online_count).
 */
export type PresenceFactory = (graceMs: number, announce: Announce, changed: () => void) => PresencePort;

/** 0 when taken (allowed), else seconds to wait before trying again. */
export type Wait = number;

/** A fixed window per key: sign-ups, uploads, reports. */
export interface WindowLimit {
  /** Records `amount` events when they fit (answers 0), else records nothing and answers the wait. */
  take(key: string, amount?: number): Promise<Wait>;
  /** The wait before `amount` more would fit, recording nothing. */
  retryAfter(key: string, amount?: number): Promise<Wait>;
}

/** A slot in a sliding-window budget, reserved before the slow work and given back when not spent. */
export interface Slot {
  release(): Promise<void>;
}

/** Sliding windows of single events with exact counts (failed logins): several keys at once. */
export interface SlidingLimit {
  /** Reserves one event in every key when every key has room, else the longest wait. */
  reserve(keys: readonly (readonly [key: string, limit: number])[]): Promise<Slot | { retryAfter: number }>;
}

/** Counted things that are held and given back (open sockets per user and per address). */
export interface Slots {
  /** Takes one slot in every key when each is under its cap; false (nothing taken) when one is full. */
  acquire(keys: readonly (readonly [key: string, cap: number])[]): Promise<boolean>;
  release(keys: readonly string[]): void;
  /** Slots held under a key over every instance. */
  held(key: string): Promise<number>;
}

export interface LimitsPort {
  window(name: string, limit: number, windowMs: number): WindowLimit;
  sliding(name: string, windowMs: number): SlidingLimit;
  slots(name: string): Slots;
}

/** Cache invalidation and moderation effects every instance hears, this one at once. */
export interface Bus {
  publish(topic: string, data: unknown): void;
  /**
   * As publish, then resolves once every instance that heard it has run its listeners (true), or
   * after `boundMs` when one has not said so yet (false). For changes that refuse something (a
   * block, a privacy setting): the request that made it is answered only when every instance
   * applies it. One process: the listeners run at once.
   */
  publishApplied(topic: string, data: unknown, boundMs?: number): Promise<boolean>;
  /** Answers the function that stops listening. */
  subscribe(topic: string, listener: (data: unknown) => void): () => void;
  /**
   * Called when this instance may have missed published changes (its subscription to the others
   * came back after a loss, PUB/SUB being at most once): copies kept by the bus read their table
   * again. Never called in one process.
   */
  onResync(listener: () => void): () => void;
}

/** How long a change that refuses something may wait for every instance to apply it. */
export const APPLIED_BOUND_MS = 1000;

/** One holder at a time over every instance (the session sweep, retention). */
export interface Lease {
  /** Takes the lease or renews it when held; false when another instance holds it. */
  hold(): Promise<boolean>;
  release(): Promise<void>;
}

/**
 * The Redis engine's own connections, for a feature that keeps state of its own in Redis with
 * scripts of its own (PeerJS signalling, src/cluster/peerjs-redis.ts) rather than a new port
 * method here. Commands go on `cmd`; `sub` may SUBSCRIBE further channels under `prefix`.
 */
export interface RedisLink {
  cmd: import("ioredis").default;
  sub: import("ioredis").default;
  prefix: string;
  instanceId: string;
  /** An instance whose heartbeat (the `inst` sorted set, lua.ts) is older than this is dead. */
  instanceTtlMs: number;
  /** Reports a failed command (throttled to one line a few seconds). */
  fail(error: unknown): void;
}

export interface Ports {
  kind: "local" | "redis";
  /** Redis only: its connections, for features with scripts of their own. */
  redis?: RedisLink;
  fanOut: FanOut;
  presence: PresenceFactory;
  limits: LimitsPort;
  bus: Bus;
  lease(name: string, ttlMs: number): Lease;
  /** Resolves once this instance hears the others (subscribed, presence loaded). */
  ready(): Promise<void>;
  /** Resolves once everything this instance sent so far has been applied (tests, shutdown). */
  settled(): Promise<void>;
  /** Stops timers and closes connections (shutdown, tests). */
  close(): Promise<void>;
}
