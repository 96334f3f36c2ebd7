// The WebRTC handshake with the current partner, relayed over the socket: the side the server
// names makes the offer, the other answers, and both trade ICE candidates. Every pairing gets a
// new number, so the late async results of an old pair (an answer, a candidate, a dropped
// connection) are ignored instead of touching the new one.
import { rtcConfiguration, type IceConfig } from "../calls/peer-config.ts";
import { CONNECT_TIMEOUT_MS, watchConnectionKind } from "../calls/connection-kind.ts";
import type { IceSource } from "../calls/ice-source.ts";
import type { ServerEvents } from "../../src/realtime/protocol.ts";
import type { RouletteSocket } from "./ports.ts";
import { asCandidate, asDescription, OFFER_RETRY_MS, ROULETTE_ERRORS } from "./roulette-state.ts";
import type { RouletteStore } from "./roulette-store.ts";
import type { CreateRtc, RtcPort } from "./rtc.ts";

export interface PeerDeps {
  store: RouletteStore;
  socket: RouletteSocket;
  ice: IceConfig;
  /** Fresh ICE settings for each partner (GET /api/ice); without it `ice` is used. */
  freshIce?: IceSource;
  createRtc: CreateRtc;
  /** How long a partner may take to connect before the set-up is reported failed. */
  connectTimeoutMs?: number;
  /** The connection to the partner dropped. */
  lost(): void;
  /** The handshake could not go on; the text is shown, the error logged. */
  fail(text: string, error: unknown): void;
}

export class RoulettePeer {
  private rtc: RtcPort | null = null;
  private pairNumber = 0;
  private offerRetried = false;
  private offerTimer: ReturnType<typeof setTimeout> | null = null;
  /** The current pair's connection being set up (its ICE settings are fetched first). */
  private opening: Promise<void> | null = null;
  private connectTimer: ReturnType<typeof setTimeout> | null = null;
  private stopWatching: (() => void) | null = null;

  constructor(private readonly deps: PeerDeps) {}

  /** Bumped whenever the pair changes. */
  get pair(): number {
    return this.pairNumber;
  }

  /** Listens to the partner's side of the handshake; returns the ways to stop listening. */
  listen(): (() => void)[] {
    const { socket } = this.deps;
    return [
      socket.on("roulette_offer", (data) => void this.onOffer(data)),
      socket.on("roulette_answer", (data) => void this.onAnswer(data)),
      socket.on("roulette_ice_candidate", (data) => void this.onCandidate(data)),
    ];
  }

  /** Connects to a newly found partner, sending our camera, and makes the offer if asked to. */
  open(partnerId: string, localStream: MediaStream, shouldCreateOffer: boolean): Promise<void> {
    const opening = this.connect(partnerId, localStream, shouldCreateOffer);
    this.opening = opening;
    return opening;
  }

  private async connect(partnerId: string, localStream: MediaStream, shouldCreateOffer: boolean): Promise<void> {
    const { store, socket } = this.deps;
    const pair = this.pairNumber;
    const ice = this.deps.freshIce ? await this.deps.freshIce() : this.deps.ice;
    if (this.pairNumber !== pair) return;
    let rtc: RtcPort;
    try {
      rtc = this.deps.createRtc(rtcConfiguration(ice), {
        candidate: (candidate) => {
          if (this.pairNumber === pair) socket.send("roulette_ice_candidate", { candidate, partnerId });
        },
        remoteStream: (stream) => {
          if (this.pairNumber !== pair || store.getSnapshot().remoteStream?.id === stream.id) return;
          store.update({ type: "connected" }, { remoteStream: stream });
        },
        state: (state) => {
          if (this.pairNumber !== pair) return;
          if (state === "connected") {
            // The media may arrive (ontrack) before ICE connects: only this state clears the limit.
            this.clearConnectTimer();
            store.update({ type: "connected" });
          }
          if (state === "disconnected" || state === "failed") this.deps.lost();
        },
      });
      this.rtc = rtc;
    } catch (error) {
      return this.deps.fail(ROULETTE_ERRORS.setup, error);
    }
    this.watch(rtc, pair);
    try {
      rtc.addStream(localStream);
    } catch (error) {
      return this.deps.fail(ROULETTE_ERRORS.stream, error);
    }
    if (!shouldCreateOffer) return;
    try {
      const offer = await rtc.createOffer();
      if (this.pairNumber === pair) socket.send("roulette_offer", { offer, partnerId });
    } catch (error) {
      if (this.pairNumber === pair) this.deps.fail(ROULETTE_ERRORS.establish, error);
    }
  }

  /**
   * A relay that refuses us (a wrong or expired credential) leaves the connection `new` for ever
   * in Chromium: past the limit the set-up is reported failed. Meanwhile the connection's own
   * statistics say whether it is relayed.
   */
  private watch(rtc: RtcPort, pair: number): void {
    const { store } = this.deps;
    this.clearConnectTimer();
    this.connectTimer = setTimeout(() => {
      this.connectTimer = null;
      if (this.pairNumber === pair) {
        this.deps.fail(ROULETTE_ERRORS.setup, new Error(`no connection to the partner within ${this.timeoutMs / 1000} s (see any ICE server error above)`));
      }
    }, this.timeoutMs);
    const stats = rtc.getStats?.bind(rtc);
    if (stats) {
      this.stopWatching = watchConnectionKind({ getStats: stats }, (connectionKind) => {
        if (this.pairNumber === pair) store.update(null, { connectionKind });
      });
    }
  }

  private get timeoutMs(): number {
    return this.deps.connectTimeoutMs ?? CONNECT_TIMEOUT_MS;
  }

  private clearConnectTimer(): void {
    if (this.connectTimer) clearTimeout(this.connectTimer);
    this.connectTimer = null;
  }

  private async onOffer(data: ServerEvents["roulette_offer"]): Promise<void> {
    // Our own set-up may still be fetching its ICE settings: the offer waits for it.
    if (!this.rtc && this.opening) await this.opening;
    const offer = asDescription(data.offer, "offer");
    if (!offer || this.deps.store.state.status === "disconnected") return;
    if (!this.rtc) {
      // The offer overtook our own set-up: give it one more chance a second later.
      if (this.offerRetried) return this.deps.fail(ROULETTE_ERRORS.offer, new Error("no peer connection for the offer"));
      this.offerRetried = true;
      this.offerTimer = setTimeout(() => {
        this.offerTimer = null;
        void this.onOffer(data);
      }, OFFER_RETRY_MS);
      return;
    }
    const { rtc, pairNumber: pair } = this;
    try {
      const answer = await rtc.answerOffer(offer);
      if (this.pairNumber === pair) this.deps.socket.send("roulette_answer", { answer, partnerId: data.partnerId });
    } catch (error) {
      if (this.pairNumber === pair) this.deps.fail(ROULETTE_ERRORS.offer, error);
    }
  }

  private async onAnswer(data: ServerEvents["roulette_answer"]): Promise<void> {
    const answer = asDescription(data.answer, "answer");
    if (!answer || !this.rtc) return;
    try {
      await this.rtc.acceptAnswer(answer);
    } catch (error) {
      console.error("Roulette: the partner's answer could not be applied", error);
    }
  }

  private async onCandidate(data: ServerEvents["roulette_ice_candidate"]): Promise<void> {
    if (!this.rtc && this.opening) await this.opening;
    const candidate = asCandidate(data.candidate);
    if (!candidate || !this.rtc) return;
    try {
      await this.rtc.addCandidate(candidate);
    } catch (error) {
      console.error("Roulette: an ICE candidate could not be added", error);
    }
  }

  /**
   * Ends the current pair's connection. A pending offer retry survives: that offer may belong to
   * the partner about to be found.
   */
  close(): void {
    this.pairNumber++;
    this.clearConnectTimer();
    this.stopWatching?.();
    this.stopWatching = null;
    this.opening = null;
    this.rtc?.close();
    this.rtc = null;
    if (this.deps.store.getSnapshot().connectionKind) this.deps.store.update(null, { connectionKind: null });
    this.offerRetried = false;
  }

  /** Drops a pending offer retry (the session stops). */
  cancelOfferRetry(): void {
    if (this.offerTimer) clearTimeout(this.offerTimer);
    this.offerTimer = null;
  }
}
