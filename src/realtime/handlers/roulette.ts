// Video Roulette over the socket: queueing with filters, Next, Stop, and the WebRTC relays,
// text chat and "keep in touch" between the two current partners only. Partners are strangers:
// every event names the pairing's opaque id, never a user id (API.md "Safety").
import { AppError, validationError } from "../../http/errors.ts";
import type { RouletteFilters, RouletteProfile } from "../../roulette/queue.ts";
import { KEEP_A, KEEP_B, type Session } from "../../roulette/sessions.ts";
import { iso } from "../../time.ts";
import { requireAdult } from "../../users/adult.ts";
import { carriedSuspension } from "../../reports/suspension.ts";
import { mayMeetInRoulette } from "../../blocks/strangers.ts";
import { forgetUser } from "../../users/cache.ts";
import { errorFields } from "../../observability/log.ts";
import { findUser, toPublicUser } from "../../users/service.ts";
import { eq } from "drizzle-orm";
import { users, type UserRow } from "../../storage/tables.ts";
import type { AppContext } from "../../context.ts";
import { transaction } from "../../storage/index.ts";
import { ROULETTE_TEXT_MAX, type RoulettePartner } from "../protocol.ts";
import { toId, type HandlerMap, type HandlerContext } from "../handler.ts";
import type { ClientSocket } from "../socket.ts";
import { encodeEvent } from "../hub.ts";
import type { Pair, Pairing } from "../../roulette/queue.ts";
import type { ClusterRoulette } from "../../roulette/cluster.ts";
import { acceptInterests, interestsView, isLanguageCode, languagesView } from "../../users/interests.ts";
import type { ClientEvents } from "../protocol.ts";
import { relayOnlyDescription, relayOnlyIceCandidate } from "../../ice/filter.ts";

function assertSelf(ctx: HandlerContext, userId: number | string | undefined): void {
  if (userId !== undefined && toId(userId) !== ctx.user.id) throw new AppError(403, "forbidden", "You can only act for yourself");
}

/** Without terms: the automatic suspension, which lasts until a moderator decides. */
export function suspendedError(terms?: { until: number | null; reason: string | null }): AppError {
  if (!terms?.reason) return new AppError(403, "suspended", "You can't use Video Roulette until a moderator reviews reports about you");
  // Read by the person in the roulette screen: a plain UTC time, not an ISO string.
  const end = terms.until === null ? "until a moderator lifts it" : `until ${iso(terms.until).slice(0, 16).replace("T", " ")} UTC`;
  return new AppError(403, "suspended", `You can't use Video Roulette ${end}. Reason: ${terms.reason}`, {
    until: terms.until === null ? null : iso(terms.until),
    reason: terms.reason,
  });
}

/** A moderator's suspension with an end is over once it passes; the automatic one waits for a moderator. */
function rouletteSuspension(app: AppContext, user: UserRow): AppError | null {
  if (user.rouletteSuspendedAt === null) return null;
  const until = user.rouletteSuspendedUntil;
  if (until !== null && until <= Date.now()) {
    // Over: cleared, so that the automatic suspension can apply again if new reports call for it.
    // Not awaited: the search goes on at once (the suspension is over either way), so a search
    // stays synchronous; a failed clear is logged, and the next search clears it again.
    void clearSuspension(app, user.id).catch((error) => app.log.error("clearing an ended roulette suspension failed", { user_id: user.id, ...errorFields(error) }));
    return null;
  }
  return suspendedError({ until, reason: user.rouletteSuspensionReason });
}

async function clearSuspension(app: AppContext, userId: number): Promise<void> {
  await transaction(app.db, (tx) => tx.update(users).set({ rouletteSuspendedAt: null, rouletteSuspendedUntil: null, rouletteSuspensionReason: null }).where(eq(users.id, userId)));
  // Otherwise the cached row would keep the ended suspension, and every search would clear it again.
  forgetUser(app.db, userId);
}

/** Ends the caller's pair or search; the partner learns why. */
export function leaveRoulette(app: AppContext, userId: number, partnerEvent: "roulette_partner_disconnected" | "roulette_partner_next"): void {
  // Several instances: a partner on another instance is told by their own (roulette/cluster.ts).
  const former = app.roulette.leave(userId, partnerEvent === "roulette_partner_next" ? "next" : "disconnected");
  if (former) former.socket.sendText(partnerEvent === "roulette_partner_next" ? NEXT_FRAME : DISCONNECTED_FRAME);
}

// Frames without data are the same every time: built once.
const NEXT_FRAME = encodeEvent("roulette_partner_next", {});
const DISCONNECTED_FRAME = encodeEvent("roulette_partner_disconnected", {});
const SEARCHING = Object.freeze({ status: "searching" });
const PAIRED = Object.freeze({ status: "paired" });

/** What a stranger may know: gender, country and age under the pairing's id. */
export const asStranger = (profile: RouletteProfile, id: string, sharedInterests: string[] = []): RoulettePartner => ({
  id,
  name: "Stranger",
  gender: profile.gender,
  country_code: profile.countryCode,
  country_name: profile.countryName ?? null,
  age: profile.age ?? null,
  languages: [...(profile.languages ?? [])],
  sharedInterests,
});

/**
 * asStranger without its id and shared interests, as JSON members: each profile's is built once,
 * then only the pairing id and what the pair shares are joined in.
 */
const strangerMembers = (profile: RouletteProfile): string =>
  JSON.stringify(asStranger(profile, "")).slice('{"id":"",'.length, -',"sharedInterests":[]}'.length);

/** The profiles of the users searching, by the cached users row (users/cache.ts), with their JSON. */
const profiles = new WeakMap<UserRow, RouletteProfile & { members: string }>();

function profileOf(user: UserRow): RouletteProfile & { members: string } {
  const known = profiles.get(user);
  // Compared too, so a row changed in place could never show a stale profile.
  const languages = languagesView(user);
  if (known && known.gender === user.gender && known.countryCode === user.countryCode && known.countryName === user.countryName && known.age === user.age && known.languages === languages) return known;
  const profile = { userId: user.id, gender: user.gender, countryCode: user.countryCode, countryName: user.countryName, age: user.age, languages, members: "" };
  profile.members = strangerMembers(profile);
  profiles.set(user, profile);
  return profile;
}

/**
 * `roulette_partner_found` naming `profile` as a stranger under pairing `id`: the same text as
 * encodeEvent would give (tests/roulette/frames.test.ts), without building or serialising the object.
 * The id is base64url, which JSON never escapes.
 */
export function partnerFoundFrame(id: string, profile: RouletteProfile, shouldCreateOffer: boolean, sharedInterests: readonly string[] = []): string {
  const members = (profile as { members?: string }).members ?? strangerMembers(profile);
  const shared = sharedInterests.length === 0 ? "[]" : JSON.stringify(sharedInterests);
  return `{"event":"roulette_partner_found","data":{"partner":{"id":"${id}",${members},"sharedInterests":${shared}},"shouldCreateOffer":${shouldCreateOffer}}}`;
}

/** Tells both of a pairing: the searcher (offerer) last, as its frame leaves with the ack. */
export function announcePairing(pairing: Pairing): void {
  const { id } = pairing.session;
  pairing.answerer.socket.sendText(partnerFoundFrame(id, pairing.offerer.profile, false, pairing.sharedInterests));
  pairing.offerer.socket.sendText(partnerFoundFrame(id, pairing.answerer.profile, true, pairing.sharedInterests));
}

type SearchFilters = NonNullable<ClientEvents["roulette_search"]["filters"]>;

/**
 * The search's filters: gender and country as before; the language must be an ISO 639-1 code;
 * interests default to the profile's and follow its rules (users/interests.ts).
 */
export function searchFilters(user: UserRow, sent: SearchFilters | undefined): RouletteFilters {
  const language = (sent?.language ?? "any").toLowerCase();
  if (language !== "any" && !isLanguageCode(language)) throw validationError({ language: "Choose a language from the list or any" });
  const interests = sent?.interests === undefined ? interestsView(user) : acceptInterests(sent.interests);
  return {
    gender: sent?.gender ?? "any",
    country: (sent?.country ?? "any") === "any" ? "any" : sent!.country!.toUpperCase(),
    language,
    interests,
    // Without interests there is nothing to wait for: such a search is paired as before.
    interestsOnly: sent?.interestsOnly === true && interests.length > 0,
  };
}

/** The caller's side of the running pairing named `partnerId`; otherwise not_paired. */
function current(ctx: HandlerContext, partnerId: string): Pair {
  const pair = ctx.app.roulette.pairOf(ctx.user.id);
  if (!pair || pair.session.id !== partnerId) {
    throw new AppError(403, "not_paired", "You are not connected to this partner");
  }
  return pair;
}

/**
 * Counts each socket's roulette frames that start or end a search: a search that had to wait for
 * a read (carriedSuspension on PostgreSQL) goes on only if none came since and the socket is open.
 */
const searchTurns = new WeakMap<ClientSocket, number>();
const nextSearchTurn = (socket: ClientSocket): number => {
  const turn = (searchTurns.get(socket) ?? 0) + 1;
  searchTurns.set(socket, turn);
  return turn;
};

function search(ctx: HandlerContext, data: ClientEvents["roulette_search"]) {
  const { app, user, socket } = ctx;
  if (app.roulette.partnerOf(user.id) !== undefined) leaveRoulette(app, user.id, "roulette_partner_disconnected");
  // Strangers' presence must not time a roulette session (issue 18, realtime/public-presence.ts).
  app.hub.hideFromStrangers(user.id);
  const filters = searchFilters(user, data.filters);
  const mayMeet = (a: number, b: number) => mayMeetInRoulette(app, a, b);
  const profile = profileOf(user);
  // Several instances: the matchmaker may be elsewhere; the partner's frame is sent before the ack.
  if (app.roulette.distributed) {
    return (app.roulette as ClusterRoulette).searchAcross(profile, filters, socket).then((status) => (status === "paired" ? PAIRED : SEARCHING));
  }
  const pairing = app.roulette.search(profile, filters, socket, mayMeet);
  if (!pairing) return SEARCHING;
  // No cork needed: Bun corks the searcher's socket while its frame is handled, so its frame and
  // the ack leave in one write, and the partner gets this one frame only (one write either way;
  // strace counted 5 sends per pairing in bench/roulette.ts, one per socket per frame in).
  announcePairing(pairing);
  return PAIRED;
}

const relayOnly = (ctx: HandlerContext): boolean => ctx.app.config.iceTransportPolicy === "relay";

export const rouletteHandlers: HandlerMap<
  | "roulette_search"
  | "roulette_stop_search"
  | "roulette_next"
  | "roulette_offer"
  | "roulette_answer"
  | "roulette_ice_candidate"
  | "roulette_text"
  | "roulette_keep_in_touch"
> = {
  roulette_search: (ctx, data) => {
    assertSelf(ctx, data.userId);
    // ctx.user is read fresh for every frame (dispatch.ts), so a confirmation or suspension made
    // since the socket opened applies here; what strangers may see is kept with the queue entry.
    const { app, user, socket } = ctx;
    requireAdult(user);
    const suspended = rouletteSuspension(app, user);
    if (suspended) throw suspended;
    const turn = nextSearchTurn(socket);
    const carried = carriedSuspension(app, user.id);
    if (carried === true) throw suspendedError();
    if (carried === false) return search(ctx, data);
    return carried.then((yes) => {
      if (yes) throw suspendedError();
      // Stopped, searched again or closed while the read ran: this search no longer stands.
      if (searchTurns.get(socket) !== turn || !app.hub.socketsOf(user.id).includes(socket)) return undefined;
      return search(ctx, data);
    });
  },

  roulette_stop_search: (ctx, data) => {
    assertSelf(ctx, data.userId);
    nextSearchTurn(ctx.socket);
    leaveRoulette(ctx.app, ctx.user.id, "roulette_partner_disconnected");
  },

  roulette_next: (ctx, data) => {
    assertSelf(ctx, data.userId);
    nextSearchTurn(ctx.socket);
    leaveRoulette(ctx.app, ctx.user.id, "roulette_partner_next");
  },

  // Under ICE_TRANSPORT_POLICY=relay nothing that names an address but the relay's is passed on
  // (ice/filter.ts): a description that is not one, or a candidate that is not a relay, is
  // dropped without a word, as a browser drops a candidate it cannot use.
  roulette_offer: (ctx, data) => {
    const { session, partner } = current(ctx, data.partnerId);
    const offer = relayOnly(ctx) ? relayOnlyDescription(data.offer) : data.offer;
    if (offer !== null) ctx.app.hub.send(partner.socket, "roulette_offer", { offer, partnerId: session.id });
  },

  roulette_answer: (ctx, data) => {
    const { session, partner } = current(ctx, data.partnerId);
    const answer = relayOnly(ctx) ? relayOnlyDescription(data.answer) : data.answer;
    if (answer !== null) ctx.app.hub.send(partner.socket, "roulette_answer", { answer, partnerId: session.id });
  },

  roulette_ice_candidate: (ctx, data) => {
    const { session, partner } = current(ctx, data.partnerId);
    const candidate = relayOnly(ctx) ? relayOnlyIceCandidate(data.candidate) : data.candidate;
    if (candidate !== null) ctx.app.hub.send(partner.socket, "roulette_ice_candidate", { candidate, partnerId: session.id });
  },

  roulette_text: (ctx, data) => {
    const { session, partner } = current(ctx, data.partnerId);
    const text = data.text.trim();
    if (text.length === 0) throw validationError({ text: "Write something first" }, "Write something first");
    if (text.length > ROULETTE_TEXT_MAX) {
      throw validationError({ text: `A message can be at most ${ROULETTE_TEXT_MAX} characters` });
    }
    const at = Date.now();
    // Kept only so that a report made during the session or soon after can carry it.
    const line = { senderId: ctx.user.id, text, at };
    ctx.app.roulette.sessions.addLine(session, line);
    // A partner on another instance gets it from theirs; several instances all keep it in their
    // copy of the session (a report by pairing id may reach any of them).
    if (!partner.remote) ctx.app.hub.send(partner.socket, "roulette_text", { text, at: iso(at) });
    if (ctx.app.roulette.distributed) (ctx.app.roulette as ClusterRoulette).relayLine(partner.partner, line);
    return { text, at: iso(at) };
  },

  roulette_keep_in_touch: async (ctx, data) => {
    const mine = current(ctx, data.partnerId);
    const { session, partnerId } = mine;
    const { app, user } = ctx;
    // A partner on another instance: each instance tells its own user once both pressed.
    if (mine.partner.remote) {
      (app.roulette as ClusterRoulette).pressKeep(mine, user.id);
      return {};
    }
    const before = session.keep;
    session.keep |= session.a === user.id ? KEEP_A : KEEP_B;
    // One press alone is never revealed: nothing is sent until both have pressed.
    if (before === session.keep || session.keep !== (KEEP_A | KEEP_B)) return {};
    const other = await findUser(app.db, partnerId);
    if (!other) return {};
    // Both chose to meet again: each may now write to the other, whatever their privacy setting.
    app.contacts.add(user.id, partnerId);
    app.contacts.add(partnerId, user.id);
    app.hub.send(mine.socket, "roulette_contact", { user: toPublicUser(other) });
    app.hub.send(mine.partner.socket, "roulette_contact", { user: toPublicUser(user) });
    return {};
  },
};
