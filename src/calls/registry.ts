// Who is in a one-to-one call with whom: ringing or connected. A user is in at most one call.
// A ringing call carries its ring timer, so every way a call ends (answer, decline, hang-up,
// a closed socket, a block) clears it in one place.
export interface Call {
  /** The call's id in Redis (src/cluster/calls-redis.ts); none in one process. */
  id?: string;
  callerId: number;
  receiverId: number;
  /** The caller's tab that placed the call. */
  callerSocketId: string;
  /** The receiver's tab that answered; null while ringing (every tab rings). */
  receiverSocketId: string | null;
  answered: boolean;
  /** Rings no tab (the callee is in Video Roulette or already gone): it can only ring out, unless a tab opens (`away`, `pushed`). */
  silent?: boolean;
  /**
   * Silent only because no tab of the callee was open when it was placed (they were reloading the
   * page, say), not because of Video Roulette: a tab that opens while it rings is told.
   */
  away?: boolean;
  /** Rings by push on the callee's devices (no tab open): a tab opened while it rings is told. */
  pushed?: boolean;
  /** The caller's PeerJS id, for a tab that opens while the call rings (`away`, `pushed`). */
  callerPeerId?: string;
  /** Several instances: the instances holding the caller's tab and the answering tab (socket ids are per instance). */
  callerInstance?: string;
  receiverInstance?: string | null;
}

/** Called once when a ringing call stops ringing: answered, declined, rung out or ended. */
export type RingEndListener = (call: Call) => void;

export class CallRegistry {
  private readonly byUser = new Map<number, Call>();
  private readonly timers = new Map<Call, ReturnType<typeof setTimeout>>();
  private readonly ringEndListeners: RingEndListener[] = [];

  onRingEnd(listener: RingEndListener): void {
    this.ringEndListeners.push(listener);
  }

  /** The call ringing for `receiverId`, if any. */
  ringingFor(receiverId: number): Call | undefined {
    const call = this.byUser.get(receiverId);
    return call && call.receiverId === receiverId && !call.answered ? call : undefined;
  }

  isBusy(userId: number): boolean {
    return this.byUser.has(userId);
  }

  of(userId: number): Call | undefined {
    return this.byUser.get(userId);
  }

  /** Registers the call; `onUnanswered` runs once after `ringMs` unless it was answered or ended first. */
  start(call: Call, ringMs?: number, onUnanswered?: (call: Call) => void): void {
    this.byUser.set(call.callerId, call);
    this.byUser.set(call.receiverId, call);
    if (ringMs === undefined || !onUnanswered) return;
    const timer = setTimeout(() => {
      if (this.byUser.get(call.callerId) === call && !call.answered) onUnanswered(call);
      // Once, whatever onUnanswered did, so ring-end listeners hear a ring-out too.
      this.stopRinging(call);
    }, ringMs);
    this.timers.set(call, timer);
  }

  answer(call: Call, receiverSocketId: string): void {
    call.answered = true;
    call.receiverSocketId = receiverSocketId;
    this.stopRinging(call);
  }

  end(call: Call): void {
    this.stopRinging(call);
    if (this.byUser.get(call.callerId) === call) this.byUser.delete(call.callerId);
    if (this.byUser.get(call.receiverId) === call) this.byUser.delete(call.receiverId);
  }

  /** The ringing call `callerId` placed to `receiverId`, if there is one. */
  ringing(callerId: number, receiverId: number): Call | undefined {
    const call = this.byUser.get(receiverId);
    return call && call.callerId === callerId && call.receiverId === receiverId && !call.answered ? call : undefined;
  }

  private stopRinging(call: Call): void {
    const timer = this.timers.get(call);
    if (timer === undefined) return;
    clearTimeout(timer);
    this.timers.delete(call);
    for (const listener of this.ringEndListeners) listener(call);
  }
}

export const otherParty = (call: Call, userId: number): number => (call.callerId === userId ? call.receiverId : call.callerId);

/** Do `userId`'s tabs know of the call? Not a callee rung silently (in Video Roulette) who never answered. */
export const knowsOf = (call: Call, userId: number): boolean => !(call.silent && !call.answered && userId === call.receiverId);
