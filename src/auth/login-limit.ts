// Failed-login budgets (API.md "Rate limits"). A slot is reserved before the slow password hash
// and given back when the password was right, so concurrent guesses can never outrun the budget
// (checking before and counting after let 40 concurrent guesses through). Every budget is per
// account: the username and the e-mail name the same one. The counting itself is the limits port's
// sliding window (src/cluster/ports.ts), so several instances share one exact budget.
import type { SlidingLimit } from "../cluster/ports.ts";

/** One reserved failure; `release` gives it back when the password turned out right (once). */
export interface Reservation {
  release(): Promise<void>;
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

export interface LoginLimits {
  /** Failures for one account from one address (a known browser: from that browser). */
  perAddress: number;
  /** Failures for one account from all addresses together. */
  perAccount: number;
  windowMs: number;
}

/** The budgets over a sliding-window limit from the limits port (one process, or shared over Redis). */
export class LoginFailures {
  constructor(
    private readonly limits: LoginLimits,
    private readonly log: SlidingLimit,
  ) {}

  /**
   * Reserves one failure in every budget the attempt answers to, or says how long to wait.
   * A browser that signed in before answers only to its own failures, so strangers failing the
   * account elsewhere cannot lock its owner out; anyone else answers to their address's budget
   * and to the account's total. Checking and reserving are one step (one Lua script over Redis).
   */
  reserve(attempt: LoginAttempt): Promise<Reservation | { retryAfter: number }> {
    const keys = attempt.knownDevice
      ? [[`${attempt.account}|device:${attempt.knownDevice}`, this.limits.perAddress] as const]
      : ([
          [`${attempt.account}|address:${addressKey(attempt.address)}`, this.limits.perAddress],
          [attempt.account, this.limits.perAccount],
        ] as const);
    return this.log.reserve(keys);
  }
}
