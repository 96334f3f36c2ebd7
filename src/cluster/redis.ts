// The ports for several instances sharing one Redis (ports.ts says what each promises). One
// connection for commands (EVALSHA of lua.ts, PUBLISH) and one for SUBSCRIBE; ioredis reconnects
// both and re-subscribes by itself (STACK-NOTES "Redis and PostgreSQL from Bun"). After a
// reconnect this instance writes back what it holds (present users, users with sockets, socket
// slots), so a Redis that restarted empty learns it again within one reconnect.
import { randomBytes } from "node:crypto";
import Redis from "ioredis";
import { unavailable } from "../http/errors.ts";
import type { Announce, Bus, FanOut, Lease, LimitsPort, LocalDelivery, Ports, PresencePort, SlidingLimit, Slot, Slots, WindowLimit } from "./ports.ts";
import { scripts, type ScriptName } from "./lua.ts";
import { APPLIED_BOUND_MS } from "./ports.ts";

export interface RedisPortsOptions {
  url: string;
  /** Every key and channel starts with it: one deployment (or one test) per prefix. */
  prefix: string;
  /** How often this instance says it is alive and runs the due presence changes. */
  heartbeatMs?: number;
  /** An instance silent this long is dead: its users go offline, its slots come free. */
  instanceTtlMs?: number;
  /** Told when Redis cannot be reached (throttled to one line a few seconds). */
  warn?: (message: string, fields: Record<string, string | number>) => void;
}

type Arg = string | number;
type Scripted = Redis & { [K in ScriptName]: (...args: Arg[]) => Promise<unknown> };

/** Commands queued while Redis is away fail after this many reconnect attempts (about 1-2 s). */
const RETRIES_PER_REQUEST = 2;

function connect(url: string): Redis {
  return new Redis(url, {
    maxRetriesPerRequest: RETRIES_PER_REQUEST,
    // Back off to at most 1 s between attempts, forever: an instance never gives up on Redis.
    retryStrategy: (times) => Math.min(times * 100, 1000),
    lazyConnect: false,
  });
}

const newId = () => randomBytes(9).toString("base64url");

/** Splits "<head>|<rest>" at the first bar. */
function cut(text: string, from = 0): [string, string] {
  const bar = text.indexOf("|", from);
  return [text.slice(from, bar), text.slice(bar + 1)];
}

export function redisPorts(options: RedisPortsOptions): Ports {
  const P = options.prefix;
  const instanceId = newId();
  const heartbeatMs = options.heartbeatMs ?? 1000;
  const instanceTtlMs = options.instanceTtlMs ?? 5000;
  const cmd = connect(options.url) as Scripted;
  const sub = connect(options.url);
  for (const [name, lua] of Object.entries(scripts)) cmd.defineCommand(name, { numberOfKeys: 0, lua });

  let lastWarn = 0;
  const fail = (error: unknown) => {
    const now = Date.now();
    if (now - lastWarn < 5000) return;
    lastWarn = now;
    options.warn?.("Redis command failed", { error: (error as Error)?.message ?? String(error), instance: instanceId });
  };
  // A limit that cannot be read answers 503 `unavailable`, never 500, never "allowed".
  const guarded = async <T>(run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (error) {
      fail(error);
      throw unavailable();
    }
  };
  cmd.on("error", fail);
  sub.on("error", fail);

  // ---- fan-out ----
  let local: LocalDelivery | null = null;
  const holds = new Set<number>();
  const fanOut: FanOut = {
    instanceId,
    distributed: true,
    attach(delivery) {
      local = delivery;
    },
    holding(userId, holding) {
      if (holding) holds.add(userId);
      else holds.delete(userId);
      cmd.hold(P, instanceId, userId, holding ? 1 : 0).catch(fail);
    },
    toUser(userId, text) {
      local?.toUser(userId, text);
      cmd.toUser(P, instanceId, userId, `u${userId}|${text}`).catch(fail);
    },
    toSocket(target, socketId, text) {
      if (target === instanceId) return local?.toSocket(socketId, text);
      cmd.publish(`${P}ch:${target}`, `s${socketId}|${text}`).catch(fail);
    },
    toAll(text, exceptUserId, hidden) {
      local?.toAll(text, exceptUserId, hidden);
      const hiddenIds = hidden && hidden.size > 0 ? [...hidden].join(",") : "";
      cmd.publish(`${P}all`, `a${instanceId}|${exceptUserId ?? ""}|${hiddenIds}|${text}`).catch(fail);
    },
    heldElsewhere(userId) {
      return cmd.smembers(`${P}su:${userId}`).then(
        (instances) => instances.some((instance) => instance !== instanceId),
        (error: unknown) => {
          fail(error);
          return false;
        },
      );
    },
    toWatchers(subjectId, text, except) {
      local?.toWatchers(subjectId, text, except);
      cmd.publish(`${P}all`, `w${instanceId}|${subjectId}|${[...except].join(",")}|${text}`).catch(fail);
    },
  };

  // ---- presence ----
  const announced = new Set<number>();
  /** Users with a present socket on some instance (Redis `pany`), kept by the `all` channel as `announced` is. */
  const present = new Set<number>();
  let presence: RedisPresence | null = null;

  class RedisPresence implements PresencePort {
    readonly here = new Set<number>();
    private stopped = false;

    constructor(
      private readonly graceMs: number,
      private readonly announce: Announce,
      readonly changed: () => void,
    ) {}

    update(userId: number, presentHere: boolean): void {
      if (this.stopped || this.here.has(userId) === presentHere) return;
      if (presentHere) {
        this.here.add(userId);
        this.up(userId);
      } else {
        this.here.delete(userId);
        cmd
          .presenceDown(P, instanceId, userId, this.graceMs)
          .then((seq) => this.flip(userId, false, Number(seq)))
          .catch(fail);
      }
    }

    up(userId: number): void {
      cmd
        .presenceUp(P, instanceId, userId)
        .then((seq) => this.flip(userId, true, Number(seq)))
        .catch(fail);
    }

    offlineNow(userId: number): void {
      if (this.stopped) return;
      cmd
        .presenceOff(P, userId)
        .then((seq) => this.flip(userId, false, Number(seq)))
        .catch(fail);
    }

    isAnnounced(userId: number): boolean {
      return announced.has(userId);
    }

    presentAnywhere(userId: number): boolean {
      return present.has(userId);
    }

    get announcedCount(): number {
      return announced.size;
    }

    stop(): void {
      this.stopped = true;
    }

    /** This instance made change number `seq` (0: no change): it is the one that tells people. */
    flip(userId: number, online: boolean, seq: number): void {
      if (!(seq > 0)) return;
      // The answer and the `all` channel come on two connections, read in no set order: the
      // answer only goes first when the channel has not brought this change (or a later one) yet.
      if (seq > heard) mirror(userId, online);
      if (!this.stopped) this.announce(userId, online);
    }
  }

  /**
   * The number of the last presence change applied from the `all` channel or a whole copy. The
   * channel brings every change in order; an answer to this instance's own command may be read
   * after later changes (another instance's ban, say), and applying it then would undo them:
   * flip() skips it.
   */
  let heard = 0;

  /** What every instance knows of who is announced, kept by the `all` channel. */
  function mirror(userId: number, online: boolean): void {
    if (announced.has(userId) === online) return;
    if (online) announced.add(userId);
    else announced.delete(userId);
    presence?.changed();
  }

  /** Someone is present anywhere now, or no longer (the copy behind hub.isPresent). */
  function mirrorPresent(userId: number, isPresent: boolean): void {
    if (isPresent) present.add(userId);
    else present.delete(userId);
  }

  /** Changes the channel brought while a whole copy was being read (bounded; past it, read again). */
  let meanwhile: [number, number, boolean, boolean][] | null = null;
  const MEANWHILE_MAX = 10_000;

  /** `presentChange`: a change of `pany` (present anywhere), else of `ann` (announced). */
  function heardChange(seq: number, userId: number, online: boolean, presentChange = false): void {
    if (meanwhile) {
      if (meanwhile.length < MEANWHILE_MAX) meanwhile.push([seq, userId, online, presentChange]);
      else meanwhile = null; // too many: the copy in flight is dropped and read again
    }
    // Already in the last whole copy (or, after Redis restarted empty, numbered afresh below it:
    // the copy read once the subscriber is back brings those).
    if (seq <= heard) return;
    heard = seq;
    if (presentChange) mirrorPresent(userId, online);
    else mirror(userId, online);
  }

  /**
   * Reads who is announced, whole (after a reconnect: changes published while a connection was
   * away are lost, and a Redis that restarted empty numbers changes from 1 again). The copy
   * replaces the mirror and its number replaces `heard`; changes the channel brought while it was
   * read and that came after it are applied again on top, so a late copy never undoes them.
   */
  let loading: Promise<void> | null = null;
  let loadAgain = false;
  function loadAnnounced(): Promise<void> {
    if (loading) {
      loadAgain = true;
      return loading;
    }
    loading = (async () => {
      for (let tries = 0; tries < 5; tries++) {
        loadAgain = false;
        meanwhile = [];
        const [seq, ids, presentIds] = (await cmd.announcedNow(P)) as [number, string[], string[]];
        const during = meanwhile;
        meanwhile = null;
        if (!during) continue;
        const now = new Set(ids.map(Number));
        for (const id of [...announced]) if (!now.has(id)) mirror(id, false);
        for (const id of now) mirror(id, true);
        present.clear();
        for (const id of presentIds) present.add(Number(id));
        heard = Number(seq);
        for (const [s, userId, online, presentChange] of during) {
          if (s <= heard) continue;
          heard = s;
          if (presentChange) mirrorPresent(userId, online);
          else mirror(userId, online);
        }
        if (!loadAgain) return;
      }
    })().finally(() => {
      loading = null;
      meanwhile = null;
    });
    return loading;
  }

  // ---- heartbeat: alive, dead instances reaped, graces ended ----
  let ticking = false;
  let ticked = false;
  const beat = (): Promise<void> => {
    if (ticking) return Promise.resolve();
    ticking = true;
    return cmd
      .tick(P, instanceId, instanceTtlMs)
      .then((answer) => {
        const [unlisted, ...gone] = answer as [number, ...(string | number)[]];
        for (let i = 0; i + 1 < gone.length; i += 2) presence?.flip(Number(gone[i]), false, Number(gone[i + 1]));
        // Reaped while this process stalled past the TTL (or Redis restarted empty): say again what it holds.
        if (unlisted === 1 && ticked) restore();
        ticked = true;
      })
      .catch(fail)
      .finally(() => (ticking = false));
  };
  // The first beat lists this instance before it holds anything, so a crash is always reaped.
  const firstBeat = beat();
  const heartbeat = setInterval(beat, heartbeatMs);
  heartbeat.unref?.();

  // ---- slots ----
  const slotCounts = new Map<string, number>();
  class RedisSlots implements Slots {
    constructor(private readonly name: string) {}

    private key(key: string): string {
      return `${this.name}:${key}`;
    }

    acquire(keys: readonly (readonly [string, number])[]): Promise<boolean> {
      return guarded(async () => {
        const flat = keys.flatMap(([key, cap]) => [this.key(key), cap]);
        const taken = (await cmd.slotsAcquire(P, instanceId, ...flat)) === 1;
        if (taken) for (const [key] of keys) slotCounts.set(this.key(key), (slotCounts.get(this.key(key)) ?? 0) + 1);
        return taken;
      });
    }

    release(keys: readonly string[]): void {
      for (const key of keys) {
        const left = (slotCounts.get(this.key(key)) ?? 0) - 1;
        if (left > 0) slotCounts.set(this.key(key), left);
        else slotCounts.delete(this.key(key));
      }
      cmd.slotsRelease(P, instanceId, ...keys.map((key) => this.key(key))).catch(fail);
    }

    held(key: string): Promise<number> {
      return guarded(async () => {
        const values = await cmd.hvals(`${P}sl:${this.key(key)}`);
        return values.reduce((sum, v) => sum + Number(v), 0);
      });
    }
  }

  // ---- limits ----
  const limits: LimitsPort = {
    window(name, limit, windowMs): WindowLimit {
      const run = (key: string, amount: number, write: 0 | 1) =>
        guarded(async () => Number(await cmd.window(`${P}w:${name}:${key}`, limit, windowMs, amount, write)) / 1000);
      return { take: (key, amount = 1) => run(key, amount, 1), retryAfter: (key, amount = 1) => run(key, amount, 0) };
    },
    sliding(name, windowMs): SlidingLimit {
      const prefix = `${P}z:${name}:`;
      return {
        reserve: (keys) =>
          guarded(async (): Promise<Slot | { retryAfter: number }> => {
            const id = newId();
            const wait = Number(await cmd.slidingReserve(prefix, windowMs, id, ...keys.flatMap(([key, limit]) => [key, limit])));
            if (wait > 0) return { retryAfter: wait / 1000 };
            let released = false;
            return {
              release: async () => {
                if (released) return;
                released = true;
                const batch = cmd.pipeline();
                for (const [key] of keys) batch.zrem(prefix + key, id);
                await batch.exec().catch(fail);
              },
            };
          }),
      };
    },
    slots: (name) => new RedisSlots(name),
  };

  // ---- bus ----
  const listeners = new Map<string, Set<(data: unknown) => void>>();
  const resyncs = new Set<() => void>();
  /**
   * publishApplied's changes waiting for the others to say they applied them: nonce -> how many
   * have not yet, and what to call when none is left. PUBLISH answers how many subscriber
   * connections received the message (one per instance, this one's included); each other instance
   * answers "k<nonce>" on this instance's channel once its listeners ran.
   */
  const awaiting = new Map<string, { acks: number; expected: number | undefined; done: (all: boolean) => void }>();
  const bus: Bus = {
    publish(topic, data) {
      for (const listener of listeners.get(topic) ?? []) listener(data);
      cmd.publish(`${P}bus`, JSON.stringify({ o: instanceId, t: topic, d: data })).catch(fail);
    },
    async publishApplied(topic, data, boundMs = APPLIED_BOUND_MS) {
      for (const listener of listeners.get(topic) ?? []) listener(data);
      const nonce = newId();
      let settle: (all: boolean) => void = () => {};
      const applied = new Promise<boolean>((resolve) => (settle = resolve));
      const timer = setTimeout(() => {
        awaiting.delete(nonce);
        settle(false);
      }, boundMs);
      const entry = {
        acks: 0,
        expected: undefined as number | undefined,
        done: (all: boolean) => {
          clearTimeout(timer);
          awaiting.delete(nonce);
          settle(all);
        },
      };
      awaiting.set(nonce, entry);
      try {
        const received = await cmd.publish(`${P}bus`, JSON.stringify({ o: instanceId, t: topic, d: data, a: nonce }));
        // Answers may come before PUBLISH's own answer (they are counted meanwhile). This
        // instance's own subscriber is among those reached unless it is away just now.
        entry.expected = received - (sub.status === "ready" ? 1 : 0);
        if (entry.acks >= entry.expected && awaiting.has(nonce)) entry.done(true);
      } catch (error) {
        fail(error);
        entry.done(false);
      }
      return applied;
    },
    subscribe(topic, listener) {
      const set = listeners.get(topic) ?? new Set();
      set.add(listener);
      listeners.set(topic, set);
      return () => void set.delete(listener);
    },
    onResync(listener) {
      resyncs.add(listener);
      return () => void resyncs.delete(listener);
    },
  };

  // ---- what arrives from other instances ----
  const mine = `${P}ch:${instanceId}`;
  const subscribed = sub.subscribe(mine, `${P}all`, `${P}bus`);
  subscribed.catch(fail);
  sub.on("message", (channel: string, message: string) => {
    if (channel === mine) {
      const [head, text] = cut(message, 1);
      if (message[0] === "u") local?.toUser(Number(head), text);
      else if (message[0] === "s") local?.toSocket(head, text);
      else if (message[0] === "k") {
        const entry = awaiting.get(message.slice(1));
        if (entry && ++entry.acks >= (entry.expected ?? Infinity)) entry.done(true);
      }
    } else if (channel === `${P}all`) {
      if (message[0] === "p" || message[0] === "q") {
        const [seq, userId] = cut(message, 3);
        return heardChange(Number(seq), Number(userId), message[1] === "1", message[0] === "q");
      }
      const [origin, rest] = cut(message, 1);
      if (origin === instanceId) return;
      const [first, rest2] = cut(rest);
      const [ids, text] = cut(rest2);
      const set = ids === "" ? undefined : new Set(ids.split(",").map(Number));
      if (message[0] === "w") local?.toWatchers(Number(first), text, set ?? new Set());
      else local?.toAll(text, first === "" ? undefined : Number(first), set);
    } else if (channel === `${P}bus`) {
      let parsed: { o: string; t: string; d: unknown; a?: string };
      try {
        parsed = JSON.parse(message);
      } catch {
        return;
      }
      if (parsed.o === instanceId) return;
      try {
        for (const listener of listeners.get(parsed.t) ?? []) listener(parsed.d);
      } finally {
        if (parsed.a) cmd.publish(`${P}ch:${parsed.o}`, `k${parsed.a}`).catch(fail);
      }
    }
  });

  // After a reconnect, Redis may have restarted empty: write back what this instance holds.
  let readyOnce = false;
  let loaded: Promise<void> | null = null;
  function restore(): void {
    for (const userId of holds) cmd.hold(P, instanceId, userId, 1).catch(fail);
    for (const userId of presence?.here ?? []) presence?.up(userId);
    for (const [key, count] of slotCounts) cmd.slotsSet(P, instanceId, key, count).catch(fail);
  }
  cmd.on("ready", () => {
    if (readyOnce) restore();
    readyOnce = true;
    loaded = loadAnnounced();
    loaded.catch(fail);
  });
  // Presence changes published while the subscriber was away are lost (PUB/SUB is at-most-once):
  // once it is back, the copy is read again whole.
  let subReadyOnce = false;
  sub.on("ready", () => {
    // ioredis sends the SUBSCRIBEs again as it turns ready; a PING on the same connection is
    // answered after them, so the copy read then misses nothing the channel will not bring.
    if (subReadyOnce)
      sub
        .ping()
        .then(() => {
          // Bus changes published meanwhile are lost too: the copies kept by the bus read again.
          for (const listener of resyncs) listener();
          return loadAnnounced();
        })
        .catch(fail);
    subReadyOnce = true;
  });
  const ready = Promise.all([
    subscribed,
    firstBeat,
    new Promise<void>((resolve) => (cmd.status === "ready" ? resolve() : cmd.once("ready", () => resolve()))),
  ]).then(() => loaded ?? undefined);
  ready.catch(() => {});

  return {
    kind: "redis",
    redis: { cmd, sub, prefix: P, instanceId, instanceTtlMs, fail },
    fanOut,
    presence(graceMs, announce, changed) {
      presence = new RedisPresence(graceMs, announce, changed);
      return presence;
    },
    limits,
    bus,
    lease(name, ttlMs): Lease {
      const key = `${P}lease:${name}`;
      return {
        hold: () => guarded(async () => (await cmd.leaseHold(key, instanceId, ttlMs)) === 1),
        release: () => guarded(async () => void (await cmd.leaseRelease(key, instanceId))),
      };
    },
    ready: () => guarded(async () => void (await ready)),
    settled: () => guarded(async () => void (await cmd.ping())),
    async close() {
      clearInterval(heartbeat);
      presence?.stop();
      // Marked as dead at once: the next heartbeat of any other instance lets go of its users.
      await cmd.zadd(`${P}inst`, 0, instanceId).catch(() => {});
      sub.disconnect();
      await cmd.quit().catch(() => cmd.disconnect());
    },
  };
}

/** A fresh prefix for one test: its keys are found and deleted by `dropPrefix`. */
export async function dropPrefix(url: string, prefix: string): Promise<void> {
  const client = new Redis(url, { maxRetriesPerRequest: 1 });
  try {
    let cursor = "0";
    do {
      const [next, keys] = await client.scan(cursor, "MATCH", `${prefix}*`, "COUNT", 1000);
      cursor = next;
      if (keys.length > 0) await client.unlink(...keys);
    } while (cursor !== "0");
  } finally {
    client.disconnect();
  }
}
