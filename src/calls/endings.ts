// The ways a call ends outside its own handlers (realtime/handlers/calls.ts): a socket closing, a
// ban or ended sessions, a block; and a tab opening while a call rings by push. In one process
// each runs at once, as before the port (`after` adds no turn); with Redis once the step is
// decided, and a step that cannot reach Redis is logged (the ring time or the heartbeat ends the
// call later).
import type { AppContext } from "../context.ts";
import { AppError } from "../http/errors.ts";
import { errorFields } from "../observability/log.ts";
import { logFailure } from "../storage/unavailable.ts";
import type { ClientSocket } from "../realtime/socket.ts";
import { cachedUser } from "../users/cache.ts";
import type { UserRow } from "../storage/tables.ts";
import { after, type MaybePromise } from "./port.ts";
import { knowsOf, otherParty, type Call } from "./registry.ts";

/** Logs a step that failed; Redis being away is already told, throttled, by the cluster ports (one line a few seconds). */
function logged(ctx: AppContext, what: string, value: MaybePromise<unknown>): void {
  if (!(value instanceof Promise)) return;
  value.catch((error: unknown) => {
    if (!(error instanceof AppError && error.code === "unavailable")) ctx.log.error(what, errorFields(error));
  });
}

/** The other side of an ended call hears it, if its tabs knew of the call. */
function tellOther(ctx: AppContext, call: Call | undefined, userId: number): void {
  if (!call) return;
  const other = otherParty(call, userId);
  if (knowsOf(call, other)) ctx.hub.sendToUser(other, "call_ended", {});
}

/** A ban or ended sessions end a call at once, ringing or not: nobody can time that at will. */
export function endCallOfExpelled(ctx: AppContext, userId: number): void {
  logged(ctx, "a call of an expelled user not ended", after(ctx.calls.endWith(userId), (call) => tellOther(ctx, call, userId)));
}

/**
 * A closing tab that was the call's (the caller's, or the one that answered) ends it. A callee who
 * leaves while it rings ends it at once only for someone in a conversation; anyone else hears "no
 * answer" at the ring time, so a call never times a stranger's departure.
 */
export function endCallOfClosedSocket(ctx: AppContext, socket: ClientSocket, lastOfUser: boolean): void {
  const ended = ctx.calls.socketClosed(socket.userId, socket.id, lastOfUser, (callerId) => ctx.contacts.talked(socket.userId, callerId));
  logged(ctx, "a closed tab's call not ended", after(ended, (call) => tellOther(ctx, call, socket.userId)));
}

/** A block between the two (`apart` says who is kept apart from the blocker) ends their call; both hear it. */
export function endCallAcrossBlock(ctx: AppContext, blockerId: number, apart: (userId: number) => boolean): void {
  const ended = after(ctx.calls.of(blockerId), (call) => {
    if (!call || !apart(otherParty(call, blockerId))) return undefined;
    return after(ctx.calls.endWith(blockerId, otherParty(call, blockerId)), (gone) => {
      if (!gone) return;
      ctx.hub.sendToUser(blockerId, "call_ended", {});
      ctx.hub.sendToUser(otherParty(gone, blockerId), "call_ended", {});
    });
  });
  logged(ctx, "a call across a new block not ended", ended);
}

/**
 * A tab opened (from the notification, or after a reload), or back after `user_logout`, while a
 * call rings by push or `away`, rings too.
 */
export function ringNewTab(ctx: AppContext, socket: ClientSocket): void {
  const rung = after(ctx.calls.tabOpened(socket.userId), (call) => {
    if (!call || call.callerPeerId === undefined) return;
    const callerPeerId = call.callerPeerId;
    const ring = (caller: UserRow | undefined) => {
      if (caller) ctx.hub.send(socket, "incoming_call", { callerId: caller.id, callerName: caller.name, callerPeerId });
    };
    const caller = cachedUser(ctx.db, call.callerId);
    if (caller instanceof Promise) caller.then(ring, (error: unknown) => logFailure(ctx.log, "a ringing caller could not be read", error));
    else ring(caller);
  });
  logged(ctx, "a call ringing by push not found for a new tab", rung);
}
