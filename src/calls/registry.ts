// Who is in a one-to-one call with whom: ringing or connected. A user is in at most one call.
export interface Call {
  callerId: number;
  receiverId: number;
  /** The caller's tab that placed the call. */
  callerSocketId: string;
  /** The receiver's tab that answered; null while ringing (every tab rings). */
  receiverSocketId: string | null;
  answered: boolean;
}

export class CallRegistry {
  private readonly byUser = new Map<number, Call>();

  isBusy(userId: number): boolean {
    return this.byUser.has(userId);
  }

  of(userId: number): Call | undefined {
    return this.byUser.get(userId);
  }

  start(call: Call): void {
    this.byUser.set(call.callerId, call);
    this.byUser.set(call.receiverId, call);
  }

  end(call: Call): void {
    if (this.byUser.get(call.callerId) === call) this.byUser.delete(call.callerId);
    if (this.byUser.get(call.receiverId) === call) this.byUser.delete(call.receiverId);
  }

  /** The ringing call `callerId` placed to `receiverId`, if there is one. */
  ringing(callerId: number, receiverId: number): Call | undefined {
    const call = this.byUser.get(receiverId);
    return call && call.callerId === callerId && call.receiverId === receiverId && !call.answered ? call : undefined;
  }
}

export const otherParty = (call: Call, userId: number): number => (call.callerId === userId ? call.receiverId : call.callerId);
