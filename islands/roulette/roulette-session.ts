// One visit to the Video Roulette screen (spec sections 4 "Video Roulette" and 8 "Roulette"):
// camera, search with retries, the WebRTC handshake over the socket, Next, Stop, losing a
// partner or the socket, and clean-up when the screen is left; and (issue 7) the pairing's text
// chat, "Keep in touch", and leaving a partner to report them. The partner is a stranger known
// only by the pairing's opaque id. Its dependencies come in through RouletteDeps, so tests drive
// it with a fake socket and a fake peer connection.
import { openCameraAndMicrophone, stopStream, type GetUserMedia } from "../media/constraints.ts";
import { rouletteMediaErrorText } from "../media/errors.ts";
import { rtcConfiguration, type IceConfig } from "../calls/peer-config.ts";
import type { PublicUser, ServerEvents } from "../../src/realtime/protocol.ts";
import type { RouletteSocket } from "./ports.ts";
import {
  asCandidate,
  asDescription,
  initialRouletteState,
  OFFER_RETRY_MS,
  RESEARCH_DELAY_MS,
  ROULETTE_ERRORS,
  SEARCH_RETRY_MS,
  rouletteReducer,
  sendableText,
  socketLost,
  type RouletteAction,
  type RouletteFilters,
  type RouletteSnapshot,
  type RouletteState,
} from "./roulette-state.ts";
import type { CreateRtc, RtcPort } from "./rtc.ts";

export interface RouletteDeps {
  socket: RouletteSocket;
  userId: number;
  ice: IceConfig;
  /** Null when the browser has no navigator.mediaDevices. */
  getUserMedia: GetUserMedia | null;
  createRtc: CreateRtc;
  /** Both partners chose to keep in touch: here is the other one's public user. */
  onContact?: (user: PublicUser) => void;
}

/** Why the server refused a search, as the person reads it; other refusals are only logged. */
const SEARCH_REFUSALS: Record<string, string> = {
  suspended: ROULETTE_ERRORS.suspended,
  adult_confirmation_required: ROULETTE_ERRORS.adult,
};

export class RouletteSession {
  private snapshot: RouletteSnapshot;
  private listeners = new Set<() => void>();
  private rtc: RtcPort | null = null;
  /** Bumped whenever the pair changes, so late async results of an old pair are dropped. */
  private pair = 0;
  private offerRetried = false;
  private searchTimer: ReturnType<typeof setInterval> | null = null;
  private researchTimer: ReturnType<typeof setTimeout> | null = null;
  private offerTimer: ReturnType<typeof setTimeout> | null = null;
  private offs: (() => void)[];
  private disposed = false;
  private textIds = 0;

  constructor(
    private readonly deps: RouletteDeps,
    filters?: RouletteFilters,
  ) {
    this.snapshot = { state: initialRouletteState(filters), localStream: null, remoteStream: null };
    const { socket } = deps;
    this.offs = [
      socket.on("roulette_partner_found", (data) => void this.onPartnerFound(data)),
      socket.on("roulette_partner_disconnected", () => this.partnerLost()),
      socket.on("roulette_partner_next", () => this.partnerLost()),
      socket.on("roulette_offer", (data) => void this.onOffer(data)),
      socket.on("roulette_answer", (data) => void this.onAnswer(data)),
      socket.on("roulette_ice_candidate", (data) => void this.onCandidate(data)),
      socket.on("roulette_text", ({ text, at }) => this.addText(false, text, at)),
      socket.on("roulette_contact", ({ user }) => this.deps.onContact?.(user)),
      socket.onStatus((status) => this.onSocketStatus(status)),
    ];
  }

  getSnapshot = (): RouletteSnapshot => this.snapshot;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private get state(): RouletteState {
    return this.snapshot.state;
  }

  private update(action: RouletteAction | null, media: Partial<Omit<RouletteSnapshot, "state">> = {}): void {
    const state = action ? rouletteReducer(this.state, action) : this.state;
    this.snapshot = { ...this.snapshot, ...media, state };
    for (const listener of [...this.listeners]) listener();
  }

  /** Start: camera and microphone, then the search. */
  async start(): Promise<void> {
    if (this.state.starting || this.state.status !== "disconnected" || this.disposed) return;
    if (!this.deps.getUserMedia) return this.update({ type: "error", text: ROULETTE_ERRORS.noCamera });
    this.update({ type: "starting" });
    let stream: MediaStream;
    try {
      stream = await openCameraAndMicrophone(this.deps.getUserMedia);
    } catch (error) {
      return this.update({ type: "error", text: rouletteMediaErrorText(error) });
    }
    if (this.disposed || !this.state.starting) return stopStream(stream);
    this.update(null, { localStream: stream });
    try {
      this.search();
    } catch (error) {
      this.releaseCamera();
      this.update({ type: "error", text: `Error starting video chat: ${error instanceof Error ? error.message : String(error)}` });
    }
  }

  private search(): void {
    this.clearTimers();
    this.update({ type: "searching" });
    this.sendSearch();
    this.searchTimer = setInterval(() => {
      if (this.state.status === "searching") this.sendSearch();
    }, SEARCH_RETRY_MS);
  }

  private sendSearch(): void {
    const pair = this.pair;
    this.deps.socket.request("roulette_search", { userId: this.deps.userId, filters: this.state.filters }).catch((error: unknown) => {
      const code = typeof error === "object" && error !== null && "code" in error ? String(error.code) : "";
      const refusal = SEARCH_REFUSALS[code];
      if (!refusal) return console.error("Roulette: the search was not accepted", error);
      if (this.pair !== pair || this.state.status !== "searching") return;
      this.clearTimers(true);
      this.releaseCamera();
      this.update({ type: "error", text: refusal }, { remoteStream: null });
    });
  }

  /** The current pairing's opaque id (the stranger's only name), or null. */
  get partnerId(): string | null {
    return this.state.partner?.id ?? null;
  }

  /** Sends a line of the text chat; false when there is nobody to send it to or nothing to send. */
  sendText(text: string): boolean {
    const partnerId = this.partnerId;
    const content = sendableText(text);
    if (!partnerId || !content || this.state.status !== "connected") return false;
    if (!this.deps.socket.send("roulette_text", { partnerId, text: content })) return false;
    this.addText(true, content, new Date().toISOString());
    return true;
  }

  private addText(mine: boolean, text: string, at: string): void {
    if (!this.state.partner) return;
    this.update({ type: "text", message: { id: ++this.textIds, mine, text, at } });
  }

  /** Keep in touch: the server tells both only once both asked; until then only I see my press. */
  keepInTouch(): void {
    const partnerId = this.partnerId;
    if (!partnerId || this.state.status !== "connected" || this.state.keepInTouch) return;
    if (this.deps.socket.send("roulette_keep_in_touch", { partnerId })) this.update({ type: "keep_in_touch" });
  }

  /**
   * Report: the pair ends at once, like Next, and the pairing's id is returned for the report.
   * The next search waits for resume(), so no new stranger appears while the report is written.
   */
  leaveToReport(): string | null {
    const partnerId = this.partnerId;
    if (!partnerId) return null;
    this.closePair();
    this.clearTimers(true);
    this.update({ type: "held" }, { remoteStream: null });
    this.deps.socket.send("roulette_next", { userId: this.deps.userId });
    return partnerId;
  }

  /** The report dialog closed: the search goes on. */
  resume(): void {
    if (this.state.held && !this.disposed) this.search();
  }

  /** New filters apply to the search under way at once. */
  setFilters(filters: RouletteFilters): void {
    this.update({ type: "filters", filters });
    if (this.state.status === "searching" && this.searchTimer) this.sendSearch();
  }

  private async onPartnerFound({ partner, shouldCreateOffer }: ServerEvents["roulette_partner_found"]): Promise<void> {
    if (this.state.status === "disconnected" || this.state.held || !this.snapshot.localStream) return;
    this.closePair();
    this.clearTimers();
    this.update({ type: "partner_found", partner });
    const pair = this.pair;
    const partnerId = partner.id;
    let rtc: RtcPort;
    try {
      rtc = this.deps.createRtc(rtcConfiguration(this.deps.ice), {
        candidate: (candidate) => {
          if (this.pair === pair) this.deps.socket.send("roulette_ice_candidate", { candidate, partnerId });
        },
        remoteStream: (stream) => {
          if (this.pair !== pair || this.snapshot.remoteStream?.id === stream.id) return;
          this.update({ type: "connected" }, { remoteStream: stream });
        },
        state: (state) => {
          if (this.pair !== pair) return;
          if (state === "connected") this.update({ type: "connected" });
          if (state === "disconnected" || state === "failed") this.partnerLost();
        },
      });
      this.rtc = rtc;
    } catch (error) {
      return this.fail(ROULETTE_ERRORS.setup, error);
    }
    try {
      rtc.addStream(this.snapshot.localStream);
    } catch (error) {
      return this.fail(ROULETTE_ERRORS.stream, error);
    }
    if (!shouldCreateOffer) return;
    try {
      const offer = await rtc.createOffer();
      if (this.pair === pair) this.deps.socket.send("roulette_offer", { offer, partnerId });
    } catch (error) {
      if (this.pair === pair) this.fail(ROULETTE_ERRORS.establish, error);
    }
  }

  private async onOffer(data: ServerEvents["roulette_offer"]): Promise<void> {
    const offer = asDescription(data.offer, "offer");
    if (!offer || this.state.status === "disconnected") return;
    if (!this.rtc) {
      // The offer overtook our own set-up: give it one more chance a second later.
      if (this.offerRetried) return this.fail(ROULETTE_ERRORS.offer, new Error("no peer connection for the offer"));
      this.offerRetried = true;
      this.offerTimer = setTimeout(() => {
        this.offerTimer = null;
        void this.onOffer(data);
      }, OFFER_RETRY_MS);
      return;
    }
    const { rtc, pair } = this;
    try {
      const answer = await rtc.answerOffer(offer);
      if (this.pair === pair) this.deps.socket.send("roulette_answer", { answer, partnerId: data.partnerId });
    } catch (error) {
      if (this.pair === pair) this.fail(ROULETTE_ERRORS.offer, error);
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
    const candidate = asCandidate(data.candidate);
    if (!candidate || !this.rtc) return;
    try {
      await this.rtc.addCandidate(candidate);
    } catch (error) {
      console.error("Roulette: an ICE candidate could not be added", error);
    }
  }

  /** The partner left (Stop, Next, closed tab) or the connection dropped. */
  private partnerLost(): void {
    if (this.state.status === "disconnected" || this.state.held) return;
    this.closePair();
    this.update({ type: "partner_lost" }, { remoteStream: null });
    if (this.state.status === "searching") this.searchLater();
    else this.releaseCamera();
  }

  /** Next Partner: leave this partner and look for another a second later. */
  next(): void {
    if (this.state.status !== "connected") return;
    this.closePair();
    this.clearTimers();
    this.update({ type: "searching" }, { remoteStream: null });
    this.deps.socket.send("roulette_next", { userId: this.deps.userId });
    this.searchLater();
  }

  /** Stop: no search, no partner, no camera, and no automatic new search. */
  stop(): void {
    const active = this.state.status !== "disconnected" || this.state.starting;
    this.clearTimers(true);
    this.closePair();
    this.releaseCamera();
    if (active) this.deps.socket.send("roulette_stop_search", { userId: this.deps.userId });
    this.update({ type: "stopped" }, { remoteStream: null });
  }

  /** The screen is left: the same as Stop, and the socket is no longer listened to. */
  dispose(): void {
    if (this.disposed) return;
    this.stop();
    this.disposed = true;
    for (const off of this.offs) off();
    this.listeners.clear();
  }

  private onSocketStatus(status: string): void {
    if (status === "connected") {
      // Back online while still searching: the server forgot the old search with the old socket.
      if (this.state.status === "searching" && !this.researchTimer && !this.state.held) this.search();
      return;
    }
    if (!socketLost(status) || this.state.status === "disconnected") return;
    this.clearTimers(true);
    this.closePair();
    this.releaseCamera();
    this.update({ type: "error", text: ROULETTE_ERRORS.connectionLost }, { remoteStream: null });
  }

  private fail(text: string, error: unknown): void {
    console.error(`Roulette: ${text}`, error);
    this.clearTimers(true);
    this.closePair();
    this.releaseCamera();
    this.deps.socket.send("roulette_stop_search", { userId: this.deps.userId });
    this.update({ type: "error", text }, { remoteStream: null });
  }

  private searchLater(): void {
    if (this.researchTimer) clearTimeout(this.researchTimer);
    this.researchTimer = setTimeout(() => {
      this.researchTimer = null;
      if (this.state.status === "searching") this.search();
    }, RESEARCH_DELAY_MS);
  }

  private closePair(): void {
    this.pair++;
    this.rtc?.close();
    this.rtc = null;
    this.offerRetried = false;
  }

  private releaseCamera(): void {
    stopStream(this.snapshot.localStream);
    if (this.snapshot.localStream) this.update(null, { localStream: null });
  }

  /** The search timers; `all` also drops a pending offer retry (the session stops). */
  private clearTimers(all = false): void {
    if (this.searchTimer) clearInterval(this.searchTimer);
    if (this.researchTimer) clearTimeout(this.researchTimer);
    this.searchTimer = null;
    this.researchTimer = null;
    if (all && this.offerTimer) clearTimeout(this.offerTimer);
    if (all) this.offerTimer = null;
  }
}
