// RouletteSession without a browser: a fake RTCPeerConnection port that records what it was asked
// to do and lets the test play the browser's events (candidates, remote tracks, state changes),
// and a session on a FakeSocket built from it, searching or met with a partner.
import { RouletteSession, type RouletteDeps } from "../../islands/roulette/roulette-session.ts";
import type { RtcHandlers, RtcPort } from "../../islands/roulette/rtc.ts";
import type { PublicUser, RoulettePartner } from "../../src/realtime/protocol.ts";
import { FakeSocket, fakeStream } from "../calls/fakes.ts";

/** A partner as roulette_partner_found describes one: a stranger known by the pairing's id. */
export const partner = (id = "pair-9", overrides: Partial<RoulettePartner> = {}): RoulettePartner => ({
  id, name: "Stranger", gender: "female", country_code: "FR", country_name: "France", age: 28, sharedInterests: [], languages: [], ...overrides,
});

export class FakeRtc implements RtcPort {
  streams: MediaStream[] = [];
  remoteDescriptions: RTCSessionDescriptionInit[] = [];
  candidates: RTCIceCandidateInit[] = [];
  closed = false;
  failOffer = false;

  constructor(
    readonly config: RTCConfiguration,
    readonly handlers: RtcHandlers,
  ) {}

  addStream(stream: MediaStream): void {
    this.streams.push(stream);
  }
  async createOffer(): Promise<RTCSessionDescriptionInit> {
    if (this.failOffer) throw new Error("no offer");
    return { type: "offer", sdp: "v=0 offer" };
  }
  async answerOffer(offer: RTCSessionDescriptionInit): Promise<RTCSessionDescriptionInit> {
    this.remoteDescriptions.push(offer);
    return { type: "answer", sdp: "v=0 answer" };
  }
  async acceptAnswer(answer: RTCSessionDescriptionInit): Promise<void> {
    this.remoteDescriptions.push(answer);
  }
  async addCandidate(candidate: RTCIceCandidateInit): Promise<void> {
    this.candidates.push(candidate);
  }
  close(): void {
    this.closed = true;
  }
}

/** A factory that keeps every connection it made. */
export function rtcFactory(options: { failOffer?: boolean } = {}) {
  const made: FakeRtc[] = [];
  return {
    made,
    create: (config: RTCConfiguration, handlers: RtcHandlers): RtcPort => {
      const rtc = new FakeRtc(config, handlers);
      rtc.failOffer = options.failOffer ?? false;
      made.push(rtc);
      return rtc;
    },
  };
}

/** Lets the session's awaited steps run (they resolve on the microtask queue). */
export async function tick(turns = 5): Promise<void> {
  for (let i = 0; i < turns; i++) await Promise.resolve();
}

type Rtcs = ReturnType<typeof rtcFactory>;

/**
 * A RouletteSession for user 7 on a FakeSocket, its camera a fake stream and its connections
 * fakes (`rtc`, or a factory failing offers with `failOffer`); `deps` replace any of the rest.
 */
export function rouletteSession(options: { deps?: Partial<RouletteDeps>; rtc?: Rtcs; failOffer?: boolean } = {}) {
  const socket = new FakeSocket();
  const rtc = options.rtc ?? rtcFactory({ failOffer: options.failOffer });
  const local = fakeStream("local");
  const contacts: PublicUser[] = [];
  const session = new RouletteSession({
    socket,
    userId: 7,
    ice: { iceServers: [], iceTransportPolicy: "relay" },
    getUserMedia: async () => local.stream,
    createRtc: rtc.create,
    onContact: (user) => contacts.push(user),
    ...options.deps,
  });
  const state = () => session.getSnapshot().state;
  return { session, socket, rtc, local, contacts, state, status: () => state().status };
}

export type RouletteFixture = ReturnType<typeof rouletteSession>;

/** `t` meets the stranger `id` and gets their media; `pc` is the connection made for them. */
export async function meet<F extends RouletteFixture>(t: F, id = "pair-9", shouldCreateOffer = true): Promise<F & { pc: FakeRtc }> {
  t.socket.emit("roulette_partner_found", { partner: partner(id), shouldCreateOffer });
  await tick();
  const pc = t.rtc.made.at(-1)!;
  pc.handlers.remoteStream(fakeStream(`remote-${id}`).stream);
  return { ...t, pc };
}
