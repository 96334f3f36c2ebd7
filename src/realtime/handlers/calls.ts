// One-to-one call signalling: ring, answer, decline, hang up. Media itself flows peer to peer
// through PeerJS; the server only tells each side what the other did.
import type { AppContext } from "../../context.ts";
import { AppError } from "../../http/errors.ts";
import { recordAnsweredCall } from "../../calls/meetings.ts";
import { knowsOf, otherParty, type Call } from "../../calls/registry.ts";
import { requireContact } from "../../messages/service.ts";
import { refusal } from "../../privacy/gate.ts";
import { requireAdult } from "../../users/adult.ts";
import { toId, type HandlerMap } from "../handler.ts";

const noSuchCall = () => new AppError(404, "not_found", "This call is no longer ringing");

/** Nobody answered in time: the caller hears "no answer", every ringing tab of the callee stops. */
function ringOut(app: AppContext, call: Call): void {
  app.calls.end(call);
  app.hub.sendToUser(call.callerId, "call_rejected", { reason: "no_answer" });
  if (knowsOf(call, call.receiverId)) app.hub.sendToUser(call.receiverId, "call_ended", {});
}

/**
 * Is the callee there, as far as this caller may know? Someone in a conversation with them knows at once;
 * anyone else only what the batched presence says (public-presence.ts), so calling people is no
 * faster a clock on their comings and goings than the people list (issue 18).
 */
function reachable(app: AppContext, callerId: number, receiverId: number): boolean {
  return app.contacts.talked(receiverId, callerId) ? app.hub.isPresent(receiverId) : app.hub.isShown(receiverId);
}

export const callHandlers: HandlerMap<"call_user" | "answer_call" | "reject_call" | "end_call"> = {
  call_user: async ({ app, socket, user }, data) => {
    requireAdult(user);
    const receiverId = toId(data.receiverId);
    requireContact(app.db, user.id, receiverId);
    // Someone with no tab open but notifications on rings on their devices (src/push/): the
    // caller hears "ringing", as from anyone (it says nothing of presence).
    const ringable = await app.push.ringable(user.id, receiverId);
    const byPush = ringable !== null;
    // A block (either way) or a "contacts only" setting answers exactly like an absent person,
    // so a call never reveals either (canRing is false across them too).
    if (!byPush && (!reachable(app, user.id, receiverId) || refusal(app, user.id, receiverId))) {
      app.hub.send(socket, "call_rejected", { reason: "offline" });
      return { status: "offline" };
    }
    if (app.calls.isBusy(receiverId) || app.calls.isBusy(user.id)) {
      app.hub.send(socket, "call_rejected", { reason: "busy" });
      return { status: "busy" };
    }
    // Someone in Video Roulette (searching or paired), or gone since the batch that still shows
    // them, is rung silently: the caller hears "ringing" and, at the ring time, "no answer", as
    // from anyone who lets it ring, so a call never reveals a roulette session (issue 18). A ring
    // in a roulette tab would also reach the stranger through the microphone.
    const silent = !app.hub.isPresent(receiverId) || app.roulette.socketOf(receiverId) !== undefined;
    const call: Call = { callerId: user.id, receiverId, callerSocketId: socket.id, receiverSocketId: null, answered: false, silent, callerPeerId: data.callerPeerId };
    app.calls.start(call, app.config.callRingMs, (unanswered) => ringOut(app, unanswered));
    if (!silent) app.hub.sendToUser(receiverId, "incoming_call", { callerId: user.id, callerName: user.name, callerPeerId: data.callerPeerId });
    else if (ringable) call.pushed = app.push.ring(user, ringable, Math.ceil(app.config.callRingMs / 1000));
    return { status: "ringing" };
  },

  answer_call: async ({ app, socket, user }, data) => {
    const call = app.calls.ringing(toId(data.callerId), user.id);
    if (!call) throw noSuchCall();
    // Answering turns the camera on: the same 18+ confirmation as placing a call. It keeps ringing.
    requireAdult(user);
    app.calls.answer(call, socket.id);
    // The two have met: a report of either by the other can now weigh toward a suspension.
    await recordAnsweredCall(app.db, call.callerId, call.receiverId, Date.now());
    app.hub.sendToUser(call.callerId, "call_answered", { answererPeerId: data.answererPeerId });
    // The receiver's other tabs stop ringing.
    for (const other of app.hub.socketsOf(user.id)) if (other !== socket) app.hub.send(other, "call_ended", {});
  },

  reject_call: ({ app, socket, user }, data) => {
    const call = app.calls.ringing(toId(data.callerId), user.id);
    if (!call) throw noSuchCall();
    app.calls.end(call);
    app.hub.sendToUser(call.callerId, "call_rejected", { reason: "declined" });
    for (const other of app.hub.socketsOf(user.id)) if (other !== socket) app.hub.send(other, "call_ended", {});
  },

  end_call: ({ app, user }, data) => {
    const call = app.calls.of(user.id);
    const otherId = toId(data.receiverId);
    // Only the current partner hears about it: nobody can end someone else's call.
    if (!call || otherParty(call, user.id) !== otherId) return { ended: false };
    app.calls.end(call);
    if (knowsOf(call, otherId)) app.hub.sendToUser(otherId, "call_ended", {});
    return { ended: true };
  },
};
