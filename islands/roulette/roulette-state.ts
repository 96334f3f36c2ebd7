// Video Roulette's state as a pure reducer (spec section 4 "Video Roulette"): disconnected,
// searching, connecting, connected, plus the partner, the error line and auto-reconnect, and
// (issue 7) the session's text chat and my own "Keep in touch" press. Both belong to one
// pairing: a new partner, Next or Stop clears them. RouletteSession performs the side effects;
// this decides what is shown.
import { t } from "../i18n.ts";
import type { ConnectionKind } from "../calls/connection-kind.ts";
import type { RoulettePartner } from "../../src/realtime/protocol.ts";
import { ROULETTE_INTEREST_TEXTS } from "./interest-texts.ts";

export type RouletteStatus = "disconnected" | "searching" | "connecting" | "connected";

export interface RouletteFilters {
  gender: "any" | "male" | "female";
  /** "any" or a two-letter country code. */
  country: string;
  /** Issue 24: "any" or an ISO 639-1 code the partner must speak. */
  language?: string;
  /** This session's interests (the profile's to begin with); absent: the server takes the profile's. */
  interests?: string[];
  /** Wait only for someone who shares one of them. */
  interestsOnly?: boolean;
}

/** Spec section 9 "Roulette". */
export const SEARCH_RETRY_MS = 30_000;
export const RESEARCH_DELAY_MS = 1000;
export const OFFER_RETRY_MS = 1000;

/** Longest text message, after trimming (ROULETTE_TEXT_MAX in the protocol; not imported, to keep server code out of the bundle). */
export const ROULETTE_TEXT_MAX = 500;

/** Read when shown, so each is in the page's language. */
export const ROULETTE_ERRORS = {
  get connectionLost() { return t("roulette.err_connection_lost"); },
  get noCamera() { return t("roulette.err_no_camera"); },
  get stream() { return t("roulette.err_stream"); },
  get establish() { return t("roulette.err_establish"); },
  get setup() { return t("roulette.err_setup"); },
  get offer() { return t("roulette.err_offer"); },
  get suspended() { return t("roulette.err_suspended"); },
  get adult() { return t("roulette.err_adult"); },
};

/** One line of the session's text chat. */
export interface RouletteText {
  id: number;
  mine: boolean;
  text: string;
  at: string;
}

export const DEFAULT_FILTERS: RouletteFilters = { gender: "any", country: "any", language: "any" };

export interface RouletteState {
  status: RouletteStatus;
  /** The camera is being opened after Start. */
  starting: boolean;
  partner: RoulettePartner | null;
  error: string | null;
  /** On after Start: losing a partner starts a new search. Off after Stop. */
  autoReconnect: boolean;
  filters: RouletteFilters;
  /** The text chat of the current pairing, oldest first. */
  messages: RouletteText[];
  /** I pressed "Keep in touch" in this pairing (never shown to the stranger). */
  keepInTouch: boolean;
  /** After Report: the pair is over and the next search waits until the report dialog closes. */
  held: boolean;
}

export type RouletteAction =
  | { type: "starting" }
  | { type: "searching" }
  | { type: "partner_found"; partner: RoulettePartner }
  | { type: "connected" }
  | { type: "partner_lost" }
  | { type: "stopped" }
  | { type: "error"; text: string }
  | { type: "filters"; filters: RouletteFilters }
  | { type: "text"; message: RouletteText }
  | { type: "keep_in_touch" }
  | { type: "held" };

export const initialRouletteState = (filters: RouletteFilters = DEFAULT_FILTERS): RouletteState => ({
  status: "disconnected",
  starting: false,
  partner: null,
  error: null,
  autoReconnect: false,
  filters,
  messages: [],
  keepInTouch: false,
  held: false,
});

/** What belongs to one pairing only. */
const NO_PAIRING: Pick<RouletteState, "partner" | "messages" | "keepInTouch"> = { partner: null, messages: [], keepInTouch: false };

export function rouletteReducer(state: RouletteState, action: RouletteAction): RouletteState {
  switch (action.type) {
    case "starting":
      return { ...state, starting: true, error: null };
    case "searching":
      return { ...state, ...NO_PAIRING, status: "searching", starting: false, error: null, autoReconnect: true, held: false };
    case "partner_found":
      if (state.status === "disconnected" || state.held) return state;
      return { ...state, status: "connecting", partner: action.partner, messages: [], keepInTouch: false };
    case "connected":
      if (state.status !== "connecting" || !state.partner) return state;
      return { ...state, status: "connected" };
    case "partner_lost":
      if (state.status === "disconnected") return state;
      return { ...state, ...NO_PAIRING, status: state.autoReconnect ? "searching" : "disconnected" };
    case "stopped":
      return { ...state, ...NO_PAIRING, status: "disconnected", starting: false, autoReconnect: false, held: false };
    case "error":
      return { ...state, ...NO_PAIRING, status: "disconnected", starting: false, autoReconnect: false, held: false, error: action.text };
    case "filters":
      return { ...state, filters: action.filters };
    case "text":
      if (!state.partner) return state;
      return { ...state, messages: [...state.messages, action.message] };
    case "keep_in_touch":
      if (state.status !== "connected") return state;
      return { ...state, keepInTouch: true };
    case "held":
      if (state.status === "disconnected") return state;
      return { ...state, ...NO_PAIRING, status: "searching", held: true };
  }
}

/** What the screen renders: the state and the two streams. */
export interface RouletteSnapshot {
  state: RouletteState;
  localStream: MediaStream | null;
  remoteStream: MediaStream | null;
  /** How the current partner's connection runs, from its own statistics; null until known. */
  connectionKind?: ConnectionKind | null;
}

/** Socket states that mean the connection is gone (not "connecting" on the way up). */
export function socketLost(status: string): boolean {
  return ["reconnecting", "failed", "closed", "unauthorized"].includes(status);
}

/** The status line (spec section 2 "Video Chat tab"). */
export function statusText(state: RouletteState): string {
  switch (state.status) {
    case "disconnected":
      return state.starting ? t("roulette.starting_camera") : t("roulette.click_start");
    case "searching":
      if (state.held) return t("roulette.paused_report");
      return state.filters.interests?.length ? ROULETTE_INTEREST_TEXTS.lookingFor(state.filters.interests) : t("roulette.looking");
    case "connecting":
      return t("roulette.connecting");
    case "connected":
      return state.partner ? t("roulette.connected_with", { name: t("roulette.stranger") }) : t("roulette.connected");
  }
}

/** What my text box holds after trimming, or null when it cannot be sent. */
export function sendableText(text: string): string | null {
  const trimmed = text.trim();
  return trimmed.length > 0 && trimmed.length <= ROULETTE_TEXT_MAX ? trimmed : null;
}

/** The counter shows once a message comes near the limit. */
export const TEXT_COUNTER_FROM = ROULETTE_TEXT_MAX - 100;

/** The buttons each status shows: Start; Stop; Next Partner and Stop. */
export function buttonsFor(status: RouletteStatus): ("start" | "next" | "stop")[] {
  if (status === "disconnected") return ["start"];
  if (status === "connected") return ["next", "stop"];
  return ["stop"];
}

/** An offer or answer as relayed by the server: checked before it reaches WebRTC. */
export function asDescription(value: unknown, type: "offer" | "answer"): RTCSessionDescriptionInit | null {
  if (typeof value !== "object" || value === null) return null;
  const { type: kind, sdp } = value as { type?: unknown; sdp?: unknown };
  return kind === type && typeof sdp === "string" ? { type, sdp } : null;
}

export function asCandidate(value: unknown): RTCIceCandidateInit | null {
  if (typeof value !== "object" || value === null) return null;
  const { candidate, sdpMid, sdpMLineIndex, usernameFragment } = value as Record<string, unknown>;
  if (typeof candidate !== "string") return null;
  return {
    candidate,
    sdpMid: typeof sdpMid === "string" ? sdpMid : null,
    sdpMLineIndex: typeof sdpMLineIndex === "number" ? sdpMLineIndex : null,
    ...(typeof usernameFragment === "string" ? { usernameFragment } : {}),
  };
}

/** A country code as its flag emoji (two regional indicator letters). */
export function flagOf(code: string | null | undefined): string {
  if (!code || !/^[A-Za-z]{2}$/.test(code)) return "";
  return String.fromCodePoint(...[...code.toUpperCase()].map((c) => 0x1f1e6 + c.charCodeAt(0) - 65));
}
