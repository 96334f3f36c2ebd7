// A fake RTCPeerConnection port for RouletteSession: records what it was asked to do and lets the
// test play the browser's events (candidates, remote tracks, state changes).
import type { RtcHandlers, RtcPort } from "../../islands/roulette/rtc.ts";
import type { RoulettePartner } from "../../src/realtime/protocol.ts";

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
