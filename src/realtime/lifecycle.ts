// What happens when a socket opens or closes, in one place: presence saved and announced to those
// who should hear it,
// waiting messages delivered, and a closing tab's call and roulette pair ended.
import type { AppContext } from "../context.ts";
import { otherParty } from "../calls/registry.ts";
import { announceDelivered } from "../messages/notify.ts";
import { deliverPending } from "../messages/service.ts";
import { findUser, setPresence } from "../users/service.ts";
import { leaveRoulette } from "./handlers/roulette.ts";
import type { ClientSocket } from "./socket.ts";

export function wireLifecycle(ctx: AppContext): void {
  // Called only when the announced presence changes (hub.ts, presence.ts), so a flapping account
  // neither floods anyone nor rewrites its row. Told only to the people with a conversation with
  // the user and to sockets watching them (issue 11): announcing to everyone grew with the square
  // of the users. People kept apart by a block never hear about each other's presence.
  ctx.hub.onPresence((userId, online) => {
    setPresence(ctx.db, userId, online, Date.now());
    ctx.hub.sendAbout(userId, ctx.contacts.partnersOf(userId), ctx.blocks.hiddenFrom(userId), online ? "user_online" : "user_offline", () => ({
      userId,
      name: findUser(ctx.db, userId)?.name ?? "",
    }));
  });

  ctx.hub.onClose((socket, lastOfUser) => {
    if (ctx.roulette.socketOf(socket.userId) === socket) leaveRoulette(ctx, socket.userId, "roulette_partner_disconnected");
    const call = ctx.calls.of(socket.userId);
    if (call) {
      const mine = call.callerId === socket.userId ? call.callerSocketId : call.receiverSocketId;
      const ringingEverywhereGone = mine === null && lastOfUser;
      if (mine === socket.id || ringingEverywhereGone) {
        ctx.calls.end(call);
        ctx.hub.sendToUser(otherParty(call, socket.userId), "call_ended", {});
      }
    }
  });
}

/** A new socket: registered (presence), then everything sent while away is delivered. */
export function socketOpened(ctx: AppContext, socket: ClientSocket): void {
  ctx.hub.connect(socket);
  const delivered = deliverPending(ctx.db, socket.userId, Date.now());
  announceDelivered(ctx, delivered);
}
