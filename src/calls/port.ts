// The calls port: who is in a one-to-one call with whom, over every instance (STYLE.md "Two
// engines, one contract"). `local.ts` is the one-process registry of before (registry.ts, answers
// at once, no promise); `src/cluster/calls-redis.ts` keeps the calls in Redis so that one call per
// user, the answer, the ring timeout and the end of a call whose instance died hold across
// instances. Every step that decides something is one compare-and-set, so two instances (or two
// tabs) acting at once get one winner. The handlers (realtime/handlers/calls.ts, calls/wiring.ts)
// send the frames; the port only decides.
import type { Call } from "./registry.ts";

/** The local engine answers at once (a plain value); the Redis one with a promise. */
export type MaybePromise<T> = T | Promise<T>;

/** Runs `next` on the value, at once when there is no promise (one process stays synchronous). */
export function after<T, R>(value: MaybePromise<T>, next: (value: T) => R): MaybePromise<R> {
  return value instanceof Promise ? value.then(next) : next(value);
}

export type CallListener = (call: Call) => void;

export interface CallsPort {
  /**
   * Registers the call and starts its ring timer, unless the caller or the callee is in a call
   * anywhere: false then (busy), and nothing is registered.
   */
  start(call: Call, ringMs: number): MaybePromise<boolean>;
  /** The call a user is in, ringing or answered. */
  of(userId: number): MaybePromise<Call | undefined>;
  isBusy(userId: number): MaybePromise<boolean>;
  /** The call `callerId` placed to `receiverId`, while it still rings. */
  ringing(callerId: number, receiverId: number): MaybePromise<Call | undefined>;
  /**
   * The answer, as a compare-and-set: the call still ringing from `callerId` to `receiverId` is
   * answered by this socket. Undefined when it no longer rings (another tab answered first, or it
   * ended): exactly one of two tabs answering at once gets the call.
   */
  answer(callerId: number, receiverId: number, socketId: string): MaybePromise<Call | undefined>;
  /** A decline: ends the call `callerId` placed to `receiverId` if it still rings. */
  decline(callerId: number, receiverId: number): MaybePromise<Call | undefined>;
  /**
   * Ends the user's call if its other side is `otherId` (any other side when undefined): a
   * hang-up, a block, a ban. Answers the call only to the one step that ended it.
   */
  endWith(userId: number, otherId?: number): MaybePromise<Call | undefined>;
  /**
   * A socket of `userId` closed (`lastHere`: their last one on this instance). Ends and answers the
   * user's call when this socket was its tab (the caller's, or the one that answered), or when it
   * rings for them, no tab of theirs is left anywhere and `endsRinging(callerId)` says so (someone
   * in a conversation with them; anyone else hears "no answer" at the ring time).
   */
  socketClosed(userId: number, socketId: string, lastHere: boolean, endsRinging: (callerId: number) => boolean): MaybePromise<Call | undefined>;
  /** The call rings on the callee's devices by push (a tab opened meanwhile is told of it). */
  rungByPush(call: Call): void;
  /**
   * A tab of `userId` opened: the call that rings for them by push, or that found no tab of theirs
   * open (`away`), if any, now rings in their tabs (it is no longer silent). Answers it so that the
   * new tab can ring. A call silent because of Video Roulette stays silent.
   */
  tabOpened(userId: number): MaybePromise<Call | undefined>;
  /** Has a tab open anywhere that has not sent `user_logout`: someone a call can reach. */
  present(userId: number): MaybePromise<boolean>;
  /** Shown online to strangers (the batched presence, public-presence.ts; the hub's copy on every instance). */
  shown(userId: number): MaybePromise<boolean>;
  /**
   * In Video Roulette (searching or paired) on any instance: a call to them rings silently. With
   * several instances the instances holding their sockets are asked; one that does not answer in
   * time counts as "in roulette" (a silent ring is never a leak; a loud one in a roulette tab is).
   */
  inRoulette(userId: number): MaybePromise<boolean>;
  /** Tells the user's tabs but one (`socketId` here) that the call stopped ringing for them. */
  otherTabs(userId: number, socketId: string, text: string): void;
  /** Nobody answered in time: the call is already ended; runs on exactly one instance. */
  onRingOut(listener: CallListener): void;
  /** A ringing call stopped ringing (answered, declined, rung out, ended); on exactly one instance. */
  onRingEnd(listener: CallListener): void;
  /** The instance holding one side died: the call is already ended; runs on one live instance. */
  onLost(listener: CallListener): void;
}
