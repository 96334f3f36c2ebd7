// Video Roulette's own RTCPeerConnection (no PeerJS: offers, answers and candidates travel over
// the chat socket), behind a small port so RouletteSession is tested without WebRTC. Candidates
// that arrive before the remote description are held until it is set.

import { logCandidateErrors } from "../calls/connection-kind.ts";

export interface RtcHandlers {
  candidate(candidate: RTCIceCandidateInit): void;
  remoteStream(stream: MediaStream): void;
  state(state: RTCPeerConnectionState): void;
}

export interface RtcPort {
  addStream(stream: MediaStream): void;
  /** Creates the offer and sets it as the local description. */
  createOffer(): Promise<RTCSessionDescriptionInit>;
  /** Sets the partner's offer and returns the answer, already set locally. */
  answerOffer(offer: RTCSessionDescriptionInit): Promise<RTCSessionDescriptionInit>;
  acceptAnswer(answer: RTCSessionDescriptionInit): Promise<void>;
  addCandidate(candidate: RTCIceCandidateInit): Promise<void>;
  /** The connection's own statistics (which candidate pair carries it); absent in tests' fakes. */
  getStats?(): Promise<RTCStatsReport>;
  close(): void;
}

export type CreateRtc = (config: RTCConfiguration, handlers: RtcHandlers) => RtcPort;

export const browserRtc: CreateRtc = (config, handlers) => {
  const pc = new RTCPeerConnection(config);
  const early: RTCIceCandidateInit[] = [];
  let closed = false;
  logCandidateErrors(pc, "Roulette");

  pc.onicecandidate = (event) => {
    if (event.candidate) handlers.candidate(event.candidate.toJSON());
  };
  pc.ontrack = (event) => {
    const stream = event.streams[0] ?? new MediaStream([event.track]);
    handlers.remoteStream(stream);
  };
  pc.onconnectionstatechange = () => {
    if (!closed) handlers.state(pc.connectionState);
  };

  const flush = async () => {
    for (const candidate of early.splice(0)) await pc.addIceCandidate(candidate);
  };

  return {
    addStream(stream) {
      for (const track of stream.getTracks()) pc.addTrack(track, stream);
    },
    async createOffer() {
      const offer = await pc.createOffer();
      await pc.setLocalDescription(offer);
      return { type: offer.type, sdp: offer.sdp ?? "" };
    },
    async answerOffer(offer) {
      await pc.setRemoteDescription(offer);
      await flush();
      const answer = await pc.createAnswer();
      await pc.setLocalDescription(answer);
      return { type: answer.type, sdp: answer.sdp ?? "" };
    },
    async acceptAnswer(answer) {
      await pc.setRemoteDescription(answer);
      await flush();
    },
    async addCandidate(candidate) {
      if (!pc.remoteDescription) early.push(candidate);
      else await pc.addIceCandidate(candidate);
    },
    getStats: () => pc.getStats(),
    close() {
      closed = true;
      pc.onicecandidate = null;
      pc.ontrack = null;
      pc.onconnectionstatechange = null;
      pc.close();
    },
  };
};
