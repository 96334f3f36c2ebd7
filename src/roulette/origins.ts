// How many roulette searches wait at once from one client network and from one device (README,
// ROULETTE_WAITING_CAP). Accounts are cheap: without this, one address with fifty guest sockets
// held fifty places in the line and every searcher for that gender met one of them (issue 18).
// Only places in the line are counted: a search that finds a partner at once never waits, so it
// is never refused, and people behind one carrier or campus address lose nothing while a partner
// is there for them. Memory follows who waits: a key is dropped when its count reaches zero.
import { AppError } from "../http/errors.ts";
import { networkOf } from "../http/network.ts";

export interface WaitingCaps {
  perAddress: number;
  perDevice: number;
}

/** For queues built without a configuration (unit tests, benches): nothing is capped. */
export const UNCAPPED: WaitingCaps = { perAddress: Number.POSITIVE_INFINITY, perDevice: Number.POSITIVE_INFINITY };

/** Where a search comes from: its socket's client address and device cookie. */
export interface SearchOrigin {
  readonly address: string;
  readonly deviceId?: string | null;
}

interface OriginKeys {
  address: string | null;
  device: string | null;
  /** Both, without the nulls: what a place holds. */
  all: readonly string[];
}

/**
 * Keys of each socket, made on its first search: parsing an address costs about 2 us, which every
 * search would otherwise pay twice. Held weakly, so a closed socket takes its keys with it.
 */
const keysOfSocket = new WeakMap<SearchOrigin, OriginKeys>();

/**
 * The network of each address seen lately. A search from another instance reaches the matchmaker
 * as a new origin object every time (roulette/cluster.ts), so the cache above never holds it; this
 * one answers by the address itself. Bounded: the oldest address goes first.
 */
const networks = new Map<string, string | null>();
export const NETWORKS_KEPT = 4096;

function networkOfCached(address: string): string | null {
  let network = networks.get(address);
  if (network === undefined) {
    network = networkOf(address);
    if (networks.size >= NETWORKS_KEPT) networks.delete(networks.keys().next().value!);
    networks.set(address, network);
  }
  return network;
}

/** Addresses whose network is kept (for tests of the bound). */
export const networksKept = (): number => networks.size;

function keysOf(origin: SearchOrigin): OriginKeys {
  let keys = keysOfSocket.get(origin);
  if (!keys) {
    const network = networkOfCached(origin.address);
    const address = network === null ? null : `a:${network}`;
    const device = origin.deviceId ? `d:${origin.deviceId}` : null;
    keys = { address, device, all: [address, device].filter((key): key is string => key !== null) };
    keysOfSocket.set(origin, keys);
  }
  return keys;
}

export class WaitingOrigins {
  /** "a:<network>" or "d:<device>" → searches waiting from it now. */
  private readonly counts = new Map<string, number>();
  /** Each waiting user's keys, so that leaving the line releases exactly what joining took. */
  private readonly held = new Map<number, readonly string[]>();

  /** Nothing to cap (unit tests, benches): nothing is counted either. */
  private readonly off: boolean;

  constructor(private readonly caps: WaitingCaps) {
    this.off = caps.perAddress === Number.POSITIVE_INFINITY && caps.perDevice === Number.POSITIVE_INFINITY;
  }

  /** Keys in use: zero once nobody waits. */
  get size(): number {
    return this.counts.size;
  }

  /**
   * Why `userId` may not take a place in the line from `origin`, or null. Their own place, if they
   * already wait (a repeated search), is not counted against them.
   */
  refusal(userId: number, origin: SearchOrigin): AppError | null {
    if (this.off) return null;
    const own = this.held.get(userId);
    const waiting = (key: string | null) => (key === null ? 0 : (this.counts.get(key) ?? 0) - (own?.includes(key) ? 1 : 0));
    const keys = keysOf(origin);
    if (waiting(keys.device) >= this.caps.perDevice) {
      return new AppError(429, "rate_limited", `Another account on this device is already searching (at most ${this.caps.perDevice} at once). Try again in a moment.`);
    }
    if (waiting(keys.address) >= this.caps.perAddress) {
      return new AppError(429, "rate_limited", `Too many people on your network are waiting for a partner right now (at most ${this.caps.perAddress} at once). Try again in a moment.`);
    }
    return null;
  }

  /** `userId` now waits from `origin`. */
  hold(userId: number, origin: SearchOrigin): void {
    if (this.off) return;
    this.release(userId);
    const keys = keysOf(origin).all;
    for (const key of keys) this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
    this.held.set(userId, keys);
  }

  /** `userId` no longer waits (paired, stopped, searched again, gone). Safe to call for anyone. */
  release(userId: number): void {
    const keys = this.held.get(userId);
    if (!keys) return;
    this.held.delete(userId);
    for (const key of keys) {
      const left = (this.counts.get(key) ?? 1) - 1;
      if (left > 0) this.counts.set(key, left);
      else this.counts.delete(key);
    }
  }
}
