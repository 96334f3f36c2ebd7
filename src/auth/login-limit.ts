// Failed-login budgets (API.md "Rate limits"). A slot is reserved before the slow password hash
// and given back when the password was right, so concurrent guesses can never outrun the budget
// (checking before and counting after let 40 concurrent guesses through). Every budget is per
// account: the username and the e-mail name the same one.

/** One reserved failure; `release` gives it back when the password turned out right. */
export interface Reservation {
  release(): void;
}

export interface LoginAttempt {
  /** `user:<id>` for an account, `name:<typed name>` for a name that matches none. */
  account: string;
  address: string;
  /** The device cookie, only when that browser has signed in to this account before. */
  knownDevice: string | null;
}

/**
 * One budget per client: an IPv4 address (also when it arrives IPv4-mapped), or an IPv6 /64,
 * the block one home or phone is given, so a single connection cannot rotate through addresses.
 */
export function addressKey(address: string): string {
  const lower = address.trim().toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (mapped) return mapped[1]!;
  if (!lower.includes(":")) return lower;
  const [head = "", tail] = lower.split("%")[0]!.split("::");
  const left = head ? head.split(":") : [];
  const right = tail === undefined ? [] : tail ? tail.split(":") : [];
  const groups = tail === undefined ? left : [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill("0"), ...right];
  return `${groups.slice(0, 4).map((g) => g.replace(/^0+(?=.)/, "")).join(":")}::/64`;
}

/** Failure times per key within a sliding window; a key never holds more than its limit. */
class FailureLog {
  private readonly entries = new Map<string, { at: number }[]>();

  constructor(
    private readonly windowMs: number,
    private readonly maxKeys: number,
    private readonly now: () => number,
  ) {}

  /** Seconds until one more failure fits under `limit`, or 0 when it fits now. */
  retryAfter(key: string, limit: number): number {
    const list = this.live(key);
    if (list.length < limit) return 0;
    return Math.max(1, (list[list.length - limit]!.at + this.windowMs - this.now()) / 1000);
  }

  add(key: string): { at: number } {
    const entry = { at: this.now() };
    const list = this.live(key);
    list.push(entry);
    this.entries.set(key, list);
    this.bound();
    return entry;
  }

  remove(key: string, entry: { at: number }): void {
    const list = this.entries.get(key);
    const index = list?.indexOf(entry) ?? -1;
    if (!list || index < 0) return;
    list.splice(index, 1);
    if (list.length === 0) this.entries.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }

  private live(key: string): { at: number }[] {
    const list = this.entries.get(key);
    if (!list) return [];
    const cutoff = this.now() - this.windowMs;
    while (list.length > 0 && list[0]!.at <= cutoff) list.shift();
    if (list.length === 0) this.entries.delete(key);
    return list;
  }

  /**
   * Memory stays bounded under a flood of made-up names: expired keys go first, then the oldest.
   * Each new key costs the flooder a password hash, so the cap is not reached within a window
   * at any rate one server can hash.
   */
  private bound(): void {
    if (this.entries.size <= this.maxKeys) return;
    for (const key of [...this.entries.keys()]) this.live(key);
    for (const key of this.entries.keys()) {
      if (this.entries.size <= this.maxKeys) break;
      this.entries.delete(key);
    }
  }
}

export interface LoginLimits {
  /** Failures for one account from one address (a known browser: from that browser). */
  perAddress: number;
  /** Failures for one account from all addresses together. */
  perAccount: number;
  windowMs: number;
}

export class LoginFailures {
  private readonly log: FailureLog;

  constructor(
    private readonly limits: LoginLimits,
    now: () => number = Date.now,
    maxKeys = 100_000,
  ) {
    this.log = new FailureLog(limits.windowMs, maxKeys, now);
  }

  /**
   * Reserves one failure in every budget the attempt answers to, or says how long to wait.
   * A browser that signed in before answers only to its own failures, so strangers failing the
   * account elsewhere cannot lock its owner out; anyone else answers to their address's budget
   * and to the account's total.
   */
  reserve(attempt: LoginAttempt): Reservation | { retryAfter: number } {
    const keys = attempt.knownDevice
      ? [[`${attempt.account}|device:${attempt.knownDevice}`, this.limits.perAddress] as const]
      : ([
          [`${attempt.account}|address:${addressKey(attempt.address)}`, this.limits.perAddress],
          [attempt.account, this.limits.perAccount],
        ] as const);
    const wait = Math.max(...keys.map(([key, limit]) => this.log.retryAfter(key, limit)));
    if (wait > 0) return { retryAfter: wait };
    const held = keys.map(([key]) => [key, this.log.add(key)] as const);
    return { release: () => held.forEach(([key, entry]) => this.log.remove(key, entry)) };
  }

  /** Keys held now (for tests of the memory bound). */
  get keyCount(): number {
    return this.log.size;
  }
}
