// One-to-one call signalling: ring, answer, decline, hang up. Media itself flows peer to peer
// through PeerJS; the server only tells each side what the other did.
import type { AppContext } from "../../context.ts";
import { AppError } from "../../http/errors.ts";
import { recordAnsweredCall } from "../../calls/meetings.ts";
import { knowsOf, type Call } from "../../calls/registry.ts";
import { encodeEvent } from "../hub.ts";
import { requireContact } from "../../messages/service.ts";
import { refusal } from "../../privacy/gate.ts";
import { requireAdult } from "../../users/adult.ts";
import { toId, type HandlerMap } from "../handler.ts";
import type { ClientSocket } from "../socket.ts";

const noSuchCall = () => new AppError(404, "not_found", "This call is no longer ringing");

/**
 * Is the callee there, as far as this caller may know? Someone in a conversation with them knows at once
 * (`present`: a tab open anywhere); anyone else only what the batched presence says
 * (public-presence.ts), so calling people is no faster a clock on their comings and goings than
 * the people list (issue 18).
 */
function reachable(app: AppContext, callerId: number, receiverId: number, present: boolean): boolean | Promise<boolean> {
  return app.contacts.talked(receiverId, callerId) ? present : app.calls.shown(receiverId);
}

/**
 * Did the socket close while a step waited on Redis? Its close was handled before the step made it
 * a call's tab, so nothing ended the call. Never in one process: the local steps answer at once.
 */
const closedMeanwhile = (app: AppContext, socket: ClientSocket): boolean => !app.hub.socketsOf(socket.userId).includes(socket);

// Every step that decides (busy, answered, ended) is one compare-and-set of the calls port
// (src/calls/port.ts), so two instances or two tabs acting at once get one winner; the handler
// sends the frames to the sides wherever their sockets are (hub.sendToUser fans out).
export const callHandlers: HandlerMap<"call_user" | "answer_call" | "reject_call" | "end_call"> = {
  call_user: async ({ app, socket, user }, data) => {
    requireAdult(user);
    const receiverId = toId(data.receiverId);
    await requireContact(app.db, user.id, receiverId);
    // Someone with no tab open but notifications on rings on their devices (src/push/): the
    // caller hears "ringing", as from anyone (it says nothing of presence).
    const ringable = await app.push.ringable(user.id, receiverId);
    const byPush = ringable !== null;
    // A block (either way) or a "contacts only" setting answers exactly like an absent person,
    // so a call never reveals either (canRing is false across them too).
    const refused = !byPush && refusal(app, user.id, receiverId) !== null;
    const present = !refused && (await app.calls.present(receiverId));
    if (!byPush && (refused || !(await reachable(app, user.id, receiverId, present)))) {
      app.hub.send(socket, "call_rejected", { reason: "offline" });
      return { status: "offline" };
    }
    // Someone in Video Roulette (searching or paired), or gone since the batch that still shows
    // them, is rung silently: the caller hears "ringing" and, at the ring time, "no answer", as
    // from anyone who lets it ring, so a call never reveals a roulette session (issue 18). A ring
    // in a roulette tab would also reach the stranger through the microphone. Someone with no tab
    // open at this instant (reloading the page, reconnecting) is rung by the tab that opens
    // during the ring time (`away`, lifecycle.ts), as a phone rings once back in coverage.
    const away = !present;
    const silent = away || (await app.calls.inRoulette(receiverId));
    const call: Call = { callerId: user.id, receiverId, callerSocketId: socket.id, receiverSocketId: null, answered: false, silent, away, callerPeerId: data.callerPeerId };
    // One call per user over every instance: registered only if neither is in one anywhere.
    if (!(await app.calls.start(call, app.config.callRingMs))) {
      app.hub.send(socket, "call_rejected", { reason: "busy" });
      return { status: "busy" };
    }
    // The caller's tab closed while Redis registered the call: its close found no call to end.
    if (closedMeanwhile(app, socket)) {
      await app.calls.endWith(user.id, receiverId);
      return { status: "offline" };
    }
    if (!silent) app.hub.sendToUser(receiverId, "incoming_call", { callerId: user.id, callerName: user.name, callerPeerId: data.callerPeerId });
    else if (ringable && app.push.ring(user, ringable, Math.ceil(app.config.callRingMs / 1000))) app.calls.rungByPush(call);
    return { status: "ringing" };
  },

  answer_call: async ({ app, socket, user }, data) => {
    const callerId = toId(data.callerId);
    if (!(await app.calls.ringing(callerId, user.id))) throw noSuchCall();
    // Answering turns the camera on: the same 18+ confirmation as placing a call. It keeps ringing.
    requireAdult(user);
    // Two tabs answering at once (on one instance or two): one gets the call, the other is told
    // it no longer rings, and hears call_ended from the winner below.
    const call = await app.calls.answer(callerId, user.id, socket.id);
    if (!call) throw noSuchCall();
    // The answering tab closed while Redis took the answer: the call ends as if it closed after.
    if (closedMeanwhile(app, socket)) {
      if (await app.calls.endWith(user.id, callerId)) app.hub.sendToUser(callerId, "call_ended", {});
      return;
    }
    // The two have met: a report of either by the other can now weigh toward a suspension.
    await recordAnsweredCall(app.db, call.callerId, call.receiverId, Date.now());
    app.hub.sendToUser(call.callerId, "call_answered", { answererPeerId: data.answererPeerId });
    // The receiver's other tabs stop ringing, wherever they are.
    app.calls.otherTabs(user.id, socket.id, CALL_ENDED);
  },

  reject_call: async ({ app, socket, user }, data) => {
    const call = await app.calls.decline(toId(data.callerId), user.id);
    if (!call) throw noSuchCall();
    app.hub.sendToUser(call.callerId, "call_rejected", { reason: "declined" });
    app.calls.otherTabs(user.id, socket.id, CALL_ENDED);
  },

  end_call: async ({ app, user }, data) => {
    const otherId = toId(data.receiverId);
    // Only the current partner hears about it: nobody can end someone else's call.
    const call = await app.calls.endWith(user.id, otherId);
    if (!call) return { ended: false };
    if (knowsOf(call, otherId)) app.hub.sendToUser(otherId, "call_ended", {});
    return { ended: true };
  },
};

const CALL_ENDED = encodeEvent("call_ended", {});
