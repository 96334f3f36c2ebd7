// How the browser's PeerJS client reaches the app's own signalling endpoint, and what each
// PeerJS error does to a call (spec section 8 "Call connection errors"). Pure, so both are
// tested without a browser.
import { t } from "../i18n.ts";
import type { ChatAppProps } from "../props.ts";

export type IceConfig = ChatAppProps["ice"];

/** The PeerJS options the call uses (the subset of peerjs's PeerOptions it sets). */
export interface CallPeerOptions {
  host: string;
  port: number;
  path: string;
  key: string;
  secure: boolean;
  pingInterval: number;
  config: RTCConfiguration;
}

/** Spec section 9 "ICE": candidate pool 3. */
export const ICE_CANDIDATE_POOL_SIZE = 3;
/** Spec section 7: the signalling socket pings every 3 s. */
export const PEER_PING_INTERVAL_MS = 3000;

type PageLocation = Pick<Location, "hostname" | "port" | "protocol">;

/** PeerJS defaults to a public cloud server: every field that matters is given explicitly. */
export function peerOptions(location: PageLocation, ice: IceConfig): CallPeerOptions {
  const secure = location.protocol === "https:";
  return {
    host: location.hostname,
    port: Number(location.port) || (secure ? 443 : 80),
    path: "/peerjs",
    key: "peerjs",
    secure,
    pingInterval: PEER_PING_INTERVAL_MS,
    config: rtcConfiguration(ice),
  };
}

/** The ICE part, shared with Video Roulette's own RTCPeerConnection. */
export function rtcConfiguration(ice: IceConfig): RTCConfiguration {
  return {
    iceServers: ice.iceServers.map((s) => ({ ...s })),
    iceTransportPolicy: ice.iceTransportPolicy,
    iceCandidatePoolSize: ICE_CANDIDATE_POOL_SIZE,
  };
}

/** What to do about an error of the Peer itself. */
export type PeerErrorPlan =
  | { action: "reload"; afterMs: number }
  | { action: "reconnect"; afterMs: number }
  | { action: "end" };

export function planForPeerError(type: string): PeerErrorPlan {
  switch (type) {
    case "peer-unavailable":
      return { action: "reload", afterMs: 3000 };
    case "network":
      return { action: "reconnect", afterMs: 2000 };
    case "disconnected":
      return { action: "reconnect", afterMs: 1000 };
    case "server-error":
      return { action: "reconnect", afterMs: 5000 };
    default:
      return { action: "end" };
  }
}

/** What to do about an error of the media connection: only a failed negotiation is retried. */
export type CallErrorPlan = { action: "retry"; afterMs: number } | { action: "end" };

export const NEGOTIATION_RETRY_MS = 3000;

export function planForCallError(type: string, retriesSoFar: number): CallErrorPlan {
  if (type === "negotiation-failed" && retriesSoFar < 1) return { action: "retry", afterMs: NEGOTIATION_RETRY_MS };
  return { action: "end" };
}

/** The message shown when a call ends because of a PeerJS error. */
export function peerErrorText(type: string, contactName: string): string {
  switch (type) {
    case "peer-unavailable":
      return t("call.unreachable", { name: contactName });
    case "browser-incompatible":
      return t("call.browser_incompatible");
    case "negotiation-failed":
      return t("call.could_not_connect", { name: contactName });
    case "webrtc":
      return t("call.video_failed", { name: contactName });
    default:
      return t("call.not_connected");
  }
}

/** Why a call the caller placed did not start (API.md call_rejected reasons). */
export function rejectionText(reason: "offline" | "busy" | "declined" | "no_answer", contactName: string): string {
  switch (reason) {
    case "offline":
      return t("call.offline", { name: contactName });
    case "busy":
      return t("call.busy", { name: contactName });
    case "declined":
      return t("call.declined", { name: contactName });
    case "no_answer":
      return noAnswerText(contactName);
  }
}

/** The end of a call nobody answered, whether the server or the caller's own timer ended it. */
export function noAnswerText(contactName: string): string {
  return t("call.no_answer", { name: contactName });
}
