// Video Roulette over the socket: queueing with filters, Next, Stop, and the WebRTC relays
// between the two current partners only.
import { AppError } from "../../http/errors.ts";
import type { RouletteFilters } from "../../roulette/queue.ts";
import { findUser, toPublicUser } from "../../users/service.ts";
import type { AppContext } from "../../context.ts";
import { toId, type HandlerMap, type HandlerContext } from "../handler.ts";

function assertSelf(ctx: HandlerContext, userId: number | string | undefined): void {
  if (userId !== undefined && toId(userId) !== ctx.user.id) throw new AppError(403, "forbidden", "You can only act for yourself");
}

/** Ends the caller's pair or search; the partner learns why. */
export function leaveRoulette(app: AppContext, userId: number, partnerEvent: "roulette_partner_disconnected" | "roulette_partner_next"): void {
  const former = app.roulette.leave(userId);
  if (former) app.hub.send(former.socket, partnerEvent, {});
}

function relay(ctx: HandlerContext, partnerId: number | string) {
  const target = toId(partnerId);
  if (ctx.app.roulette.partnerOf(ctx.user.id) !== target) {
    throw new AppError(403, "not_paired", "You are not connected to this partner");
  }
  const socket = ctx.app.roulette.partnerSocket(ctx.user.id);
  if (!socket) throw new AppError(403, "not_paired", "You are not connected to this partner");
  return socket;
}

export const rouletteHandlers: HandlerMap<
  "roulette_search" | "roulette_stop_search" | "roulette_next" | "roulette_offer" | "roulette_answer" | "roulette_ice_candidate"
> = {
  roulette_search: (ctx, data) => {
    assertSelf(ctx, data.userId);
    const { app, user, socket } = ctx;
    if (app.roulette.partnerOf(user.id) !== undefined) leaveRoulette(app, user.id, "roulette_partner_disconnected");
    const filters: RouletteFilters = {
      gender: data.filters?.gender ?? "any",
      country: (data.filters?.country ?? "any") === "any" ? "any" : data.filters!.country!.toUpperCase(),
    };
    const pairing = app.roulette.search({ userId: user.id, gender: user.gender, countryCode: user.countryCode }, filters, socket);
    if (!pairing) return { status: "searching" };
    const offerer = findUser(app.db, pairing.offerer.profile.userId);
    const answerer = findUser(app.db, pairing.answerer.profile.userId);
    if (!offerer || !answerer) return { status: "searching" };
    app.hub.send(pairing.offerer.socket, "roulette_partner_found", { partner: toPublicUser(answerer), shouldCreateOffer: true });
    app.hub.send(pairing.answerer.socket, "roulette_partner_found", { partner: toPublicUser(offerer), shouldCreateOffer: false });
    return { status: "paired" };
  },

  roulette_stop_search: (ctx, data) => {
    assertSelf(ctx, data.userId);
    leaveRoulette(ctx.app, ctx.user.id, "roulette_partner_disconnected");
  },

  roulette_next: (ctx, data) => {
    assertSelf(ctx, data.userId);
    leaveRoulette(ctx.app, ctx.user.id, "roulette_partner_next");
  },

  roulette_offer: (ctx, data) => {
    ctx.app.hub.send(relay(ctx, data.partnerId), "roulette_offer", { offer: data.offer, partnerId: ctx.user.id });
  },

  roulette_answer: (ctx, data) => {
    ctx.app.hub.send(relay(ctx, data.partnerId), "roulette_answer", { answer: data.answer, partnerId: ctx.user.id });
  },

  roulette_ice_candidate: (ctx, data) => {
    ctx.app.hub.send(relay(ctx, data.partnerId), "roulette_ice_candidate", { candidate: data.candidate, partnerId: ctx.user.id });
  },
};
