// What happens when a socket opens or closes, in one place: presence saved and announced to those
// who should hear it,
// waiting messages delivered, and a closing tab's call and roulette pair ended.
import type { AppContext } from "../context.ts";
import { knowsOf, otherParty } from "../calls/registry.ts";
import { announceDelivered } from "../messages/notify.ts";
import { deliverPending } from "../messages/service.ts";
import { messageWriter } from "../messages/writer.ts";
import { cachedUser } from "../users/cache.ts";
import { setPresence } from "../users/service.ts";
import { leaveRoulette } from "./handlers/roulette.ts";
import type { ClientSocket } from "./socket.ts";
import { transaction } from "../storage/index.ts";
import { wireSharedCaps } from "./shared-caps.ts";
import { errorFields } from "../observability/log.ts";

/** Per context: the socket-cap slot a socket takes over every instance (null with one process). */
const claims = new WeakMap<AppContext, ((socket: ClientSocket) => void) | null>();

export function wireLifecycle(ctx: AppContext): void {
  claims.set(ctx, wireSharedCaps(ctx));
  // From the user cache (synchronous, as the socket handlers read users): the frame is built only
  // when someone hears it, and presence frames leave in the order the changes happened.
  const name = (userId: number) => cachedUser(ctx.db, userId)?.name ?? "";
  // At once (after the grace), to the people with a conversation with the user (a message either
  // way), as the contract has it: they know the account already.
  // Called only when the announced presence changes (hub.ts, presence.ts), so a flapping account
  // neither floods anyone nor rewrites its row. People kept apart by a block never hear about each
  // other's presence.
  ctx.hub.onPresence((userId, online) => {
    ctx.hub.sendAbout(userId, ctx.contacts.partnersOf(userId), ctx.blocks.hiddenFrom(userId), online ? "user_online" : "user_offline", () => ({ userId, name: name(userId) }), {
      watchers: false,
    });
  });
  // Everyone else who may hear it (watchers without a conversation) hears it in
  // the next batch (public-presence.ts), and the users row, which every list and profile reads,
  // changes with that batch and carries its time as last_seen: timing a roulette partner's
  // departure against a list must not name their account (issue 18).
  // The frames leave once the rows have committed, so a list read on hearing one shows the change;
  // batches commit in the order they were made (transactions take turns), so frames keep it too.
  ctx.hub.onPublicPresence(async (changes, at) => {
    try {
      await transaction(ctx.db, async (tx) => {
        for (const [userId, online] of changes) await setPresence(tx, userId, online, at);
      });
    } catch (error) {
      // The rows stay as they were (the next change rewrites them); the announcement still goes.
      ctx.log.error("presence batch not saved", errorFields(error));
    }
    for (const [userId, online] of changes) {
      ctx.hub.sendAbout(userId, ctx.contacts.partnersOf(userId), ctx.blocks.hiddenFrom(userId), online ? "user_online" : "user_offline", () => ({ userId, name: name(userId) }), {
        skip: ctx.contacts.partnersOf(userId),
      });
    }
  });

  // A ban or ended sessions end a call at once, ringing or not: nobody can time that at will.
  ctx.hub.onExpel((userId) => {
    const call = ctx.calls.of(userId);
    if (!call) return;
    ctx.calls.end(call);
    const other = otherParty(call, userId);
    if (knowsOf(call, other)) ctx.hub.sendToUser(other, "call_ended", {});
  });

  ctx.hub.onClose((socket, lastOfUser) => {
    if (ctx.roulette.socketOf(socket.userId) === socket) leaveRoulette(ctx, socket.userId, "roulette_partner_disconnected");
    const call = ctx.calls.of(socket.userId);
    if (call) {
      const mine = call.callerId === socket.userId ? call.callerSocketId : call.receiverSocketId;
      // A callee who leaves while it rings ends it at once only for someone in a conversation; anyone
      // else hears "no answer" at the ring time, so a call never times a stranger's departure.
      const ringingEverywhereGone = mine === null && lastOfUser && ctx.contacts.talked(socket.userId, otherParty(call, socket.userId));
      if (mine === socket.id || ringingEverywhereGone) {
        ctx.calls.end(call);
        const other = otherParty(call, socket.userId);
        if (knowsOf(call, other)) ctx.hub.sendToUser(other, "call_ended", {});
      }
    }
  });
}

/** A new socket: registered (presence), then everything sent while away is delivered. */
export function socketOpened(ctx: AppContext, socket: ClientSocket): void {
  ctx.hub.connect(socket);
  claims.get(ctx)?.(socket);
  // A tab opened (from the notification, say) while a call rings by push rings too.
  const call = ctx.calls.ringingFor(socket.userId);
  if (call?.pushed && call.callerPeerId !== undefined) {
    call.silent = false;
    const caller = cachedUser(ctx.db, call.callerId);
    if (caller) ctx.hub.send(socket, "incoming_call", { callerId: caller.id, callerName: caller.name, callerPeerId: call.callerPeerId });
  }
  // Marked in the message writer's next batch, told once committed: Bun calls this synchronously
  // as the socket opens, the batch takes its turn with every other write, and the openings of a
  // reconnecting crowd share one commit instead of a transaction each.
  const at = Date.now();
  messageWriter(ctx.db)
    .submit((tx) => deliverPending(tx, socket.userId, at))
    .then(
      (delivered) => announceDelivered(ctx, delivered),
      (error: unknown) => ctx.log.error("waiting messages not marked delivered", { user_id: socket.userId, ...errorFields(error) }),
    );
}
