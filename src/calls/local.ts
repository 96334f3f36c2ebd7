// The calls port in one process: the registry of before (registry.ts) behind the port, answering
// at once with plain values, so a call in one process takes the same steps, in the same order, as
// before the port (the ring timer is the registry's own setTimeout).
import type { CallListener, CallsPort } from "./port.ts";
import { CallRegistry, otherParty, type Call } from "./registry.ts";

/** What this process knows of a user's tabs (the hub). */
export interface LocalReach {
  present(userId: number): boolean;
  shown(userId: number): boolean;
  /** Searching or paired in Video Roulette here (none: nobody). */
  inRoulette?(userId: number): boolean;
  /** Sends `text` to every socket of the user here but `socketId`. */
  otherTabs(userId: number, socketId: string, text: string): void;
}

export class LocalCalls implements CallsPort {
  readonly registry = new CallRegistry();
  private readonly ringOutListeners: CallListener[] = [];

  constructor(private readonly reach: LocalReach) {}

  start(call: Call, ringMs: number): boolean {
    if (this.registry.isBusy(call.receiverId) || this.registry.isBusy(call.callerId)) return false;
    this.registry.start(call, ringMs, (unanswered) => {
      // Ended first (the ring-end listeners hear it then), as the handler did before the port.
      this.registry.end(unanswered);
      for (const listener of this.ringOutListeners) listener(unanswered);
    });
    return true;
  }

  of(userId: number): Call | undefined {
    return this.registry.of(userId);
  }

  isBusy(userId: number): boolean {
    return this.registry.isBusy(userId);
  }

  ringing(callerId: number, receiverId: number): Call | undefined {
    return this.registry.ringing(callerId, receiverId);
  }

  answer(callerId: number, receiverId: number, socketId: string): Call | undefined {
    const call = this.registry.ringing(callerId, receiverId);
    if (call) this.registry.answer(call, socketId);
    return call;
  }

  decline(callerId: number, receiverId: number): Call | undefined {
    const call = this.registry.ringing(callerId, receiverId);
    if (call) this.registry.end(call);
    return call;
  }

  endWith(userId: number, otherId?: number): Call | undefined {
    const call = this.registry.of(userId);
    if (!call || (otherId !== undefined && otherParty(call, userId) !== otherId)) return undefined;
    this.registry.end(call);
    return call;
  }

  socketClosed(userId: number, socketId: string, lastHere: boolean, endsRinging: (callerId: number) => boolean): Call | undefined {
    const call = this.registry.of(userId);
    if (!call) return undefined;
    const mine = call.callerId === userId ? call.callerSocketId : call.receiverSocketId;
    if (mine !== socketId && !(mine === null && lastHere && endsRinging(call.callerId))) return undefined;
    this.registry.end(call);
    return call;
  }

  rungByPush(call: Call): void {
    call.pushed = true;
  }

  tabOpened(userId: number): Call | undefined {
    const call = this.registry.ringingFor(userId);
    if (!call || !(call.pushed || call.away) || call.callerPeerId === undefined) return undefined;
    call.silent = false;
    return call;
  }

  present(userId: number): boolean {
    return this.reach.present(userId);
  }

  shown(userId: number): boolean {
    return this.reach.shown(userId);
  }

  inRoulette(userId: number): boolean {
    return this.reach.inRoulette?.(userId) ?? false;
  }

  otherTabs(userId: number, socketId: string, text: string): void {
    this.reach.otherTabs(userId, socketId, text);
  }

  onRingOut(listener: CallListener): void {
    this.ringOutListeners.push(listener);
  }

  onRingEnd(listener: CallListener): void {
    this.registry.onRingEnd(listener);
  }

  /** One process: no other instance can die under a call. */
  onLost(): void {}
}
