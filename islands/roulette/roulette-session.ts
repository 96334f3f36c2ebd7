// One visit to the Video Roulette screen (spec sections 4 "Video Roulette" and 8 "Roulette"):
// the coordinator. It owns the camera and the visit's transitions (Start, a partner found or
// lost, Next, Stop, leaving a partner to report them, losing the socket, leaving the screen) and
// hands the rest to its parts: RouletteSearch (searching and retrying), RoulettePeer (the WebRTC
// handshake) and RoulettePairing (text chat and Keep in touch), all sharing one RouletteStore.
// Its dependencies come in through RouletteDeps, so tests drive it with a fake socket and a fake
// peer connection.
import { openCameraAndMicrophone, stopStream, type GetUserMedia } from "../media/constraints.ts";
import { t } from "../i18n.ts";
import { rouletteMediaErrorText } from "../media/errors.ts";
import type { IceConfig } from "../calls/peer-config.ts";
import type { IceSource } from "../calls/ice-source.ts";
import type { PublicUser, ServerEvents } from "../../src/realtime/protocol.ts";
import type { RouletteSocket } from "./ports.ts";
import { RoulettePairing } from "./roulette-pairing.ts";
import { RoulettePeer } from "./roulette-peer.ts";
import { RouletteSearch } from "./roulette-search.ts";
import { ROULETTE_ERRORS, socketLost, type RouletteFilters, type RouletteSnapshot, type RouletteState } from "./roulette-state.ts";
import { RouletteStore } from "./roulette-store.ts";
import type { CreateRtc } from "./rtc.ts";

export interface RouletteDeps {
  socket: RouletteSocket;
  userId: number;
  ice: IceConfig;
  /** Fresh ICE settings before each partner (GET /api/ice); without it `ice` is used. */
  freshIce?: IceSource;
  /** Null when the browser has no navigator.mediaDevices. */
  getUserMedia: GetUserMedia | null;
  createRtc: CreateRtc;
  /** Both partners chose to keep in touch: here is the other one's public user. */
  onContact?: (user: PublicUser) => void;
}

export class RouletteSession {
  readonly getSnapshot: () => RouletteSnapshot;
  readonly subscribe: (listener: () => void) => () => void;
  private readonly store: RouletteStore;
  private readonly search: RouletteSearch;
  private readonly peer: RoulettePeer;
  private readonly pairing: RoulettePairing;
  private readonly offs: (() => void)[];
  private disposed = false;

  constructor(
    private readonly deps: RouletteDeps,
    filters?: RouletteFilters,
  ) {
    const { socket, userId } = deps;
    const store = (this.store = new RouletteStore(filters));
    this.getSnapshot = store.getSnapshot;
    this.subscribe = store.subscribe;
    this.peer = new RoulettePeer({
      store,
      socket,
      ice: deps.ice,
      freshIce: deps.freshIce,
      createRtc: deps.createRtc,
      lost: () => this.partnerLost(),
      fail: (text, error) => this.fail(text, error),
    });
    this.search = new RouletteSearch({
      store,
      socket,
      userId,
      currentPair: () => this.peer.pair,
      refused: (text) => {
        this.peer.cancelOfferRetry();
        this.releaseCamera();
        store.update({ type: "error", text }, { remoteStream: null });
      },
    });
    this.pairing = new RoulettePairing({ store, socket, onContact: deps.onContact });
    this.offs = [
      socket.on("roulette_partner_found", (data) => this.onPartnerFound(data)),
      socket.on("roulette_partner_disconnected", () => this.partnerLost()),
      socket.on("roulette_partner_next", () => this.partnerLost()),
      ...this.peer.listen(),
      ...this.pairing.listen(),
      socket.onStatus((status) => this.onSocketStatus(status)),
    ];
  }

  private get state(): RouletteState {
    return this.store.state;
  }

  /** The current pairing's opaque id (the stranger's only name), or null. */
  get partnerId(): string | null {
    return this.store.partnerId;
  }

  /** Start: camera and microphone, then the search. */
  async start(): Promise<void> {
    if (this.state.starting || this.state.status !== "disconnected" || this.disposed) return;
    if (!this.deps.getUserMedia) return this.store.update({ type: "error", text: ROULETTE_ERRORS.noCamera });
    this.store.update({ type: "starting" });
    let stream: MediaStream;
    try {
      stream = await openCameraAndMicrophone(this.deps.getUserMedia);
    } catch (error) {
      return this.store.update({ type: "error", text: rouletteMediaErrorText(error) });
    }
    if (this.disposed || !this.state.starting) return stopStream(stream);
    this.store.update(null, { localStream: stream });
    try {
      this.search.begin();
    } catch (error) {
      this.releaseCamera();
      this.store.update({ type: "error", text: t("roulette.err_starting", { message: error instanceof Error ? error.message : String(error) }) });
    }
  }

  sendText(text: string): boolean {
    return this.pairing.sendText(text);
  }

  keepInTouch(): void {
    this.pairing.keepInTouch();
  }

  /**
   * Report: the pair ends at once, like Next, and the pairing's id is returned for the report.
   * The next search waits for resume(), so no new stranger appears while the report is written.
   */
  leaveToReport(): string | null {
    const partnerId = this.partnerId;
    if (!partnerId) return null;
    this.peer.close();
    this.clearTimers();
    this.store.update({ type: "held" }, { remoteStream: null });
    this.deps.socket.send("roulette_next", { userId: this.deps.userId });
    return partnerId;
  }

  /** The report dialog closed: the search goes on. */
  resume(): void {
    if (this.state.held && !this.disposed) this.search.begin();
  }

  /** New filters apply to the search under way at once. */
  setFilters(filters: RouletteFilters): void {
    this.store.update({ type: "filters", filters });
    if (this.state.status === "searching" && this.search.running) this.search.send();
  }

  private onPartnerFound({ partner, shouldCreateOffer }: ServerEvents["roulette_partner_found"]): void {
    const { localStream } = this.store.getSnapshot();
    if (this.state.status === "disconnected" || this.state.held || !localStream) return;
    this.peer.close();
    this.search.cancel();
    this.store.update({ type: "partner_found", partner });
    void this.peer.open(partner.id, localStream, shouldCreateOffer);
  }

  /** The partner left (Stop, Next, closed tab) or the connection dropped. */
  private partnerLost(): void {
    if (this.state.status === "disconnected" || this.state.held) return;
    this.peer.close();
    this.store.update({ type: "partner_lost" }, { remoteStream: null });
    if (this.state.status === "searching") this.search.later();
    else this.releaseCamera();
  }

  /** Next Partner: leave this partner and look for another a second later. */
  next(): void {
    if (this.state.status !== "connected") return;
    this.peer.close();
    this.search.cancel();
    this.store.update({ type: "searching" }, { remoteStream: null });
    this.deps.socket.send("roulette_next", { userId: this.deps.userId });
    this.search.later();
  }

  /** Stop: no search, no partner, no camera, and no automatic new search. */
  stop(): void {
    const active = this.state.status !== "disconnected" || this.state.starting;
    this.endEverything();
    if (active) this.deps.socket.send("roulette_stop_search", { userId: this.deps.userId });
    this.store.update({ type: "stopped" }, { remoteStream: null });
  }

  /** The screen is left: the same as Stop, and the socket is no longer listened to. */
  dispose(): void {
    if (this.disposed) return;
    this.stop();
    this.disposed = true;
    for (const off of this.offs) off();
    this.store.clearListeners();
  }

  private onSocketStatus(status: string): void {
    if (status === "connected") {
      // Back online while still searching: the server forgot the old search with the old socket.
      if (this.state.status === "searching" && !this.search.pending && !this.state.held) this.search.begin();
      return;
    }
    if (!socketLost(status) || this.state.status === "disconnected") return;
    this.endEverything();
    this.store.update({ type: "error", text: ROULETTE_ERRORS.connectionLost }, { remoteStream: null });
  }

  private fail(text: string, error: unknown): void {
    console.error(`Roulette: ${text}`, error);
    this.endEverything();
    this.deps.socket.send("roulette_stop_search", { userId: this.deps.userId });
    this.store.update({ type: "error", text }, { remoteStream: null });
  }

  /** Every timer, the partner's connection and the camera: what Stop, failures and a lost socket end. */
  private endEverything(): void {
    this.clearTimers();
    this.peer.close();
    this.releaseCamera();
  }

  /** The search timers and a pending offer retry. */
  private clearTimers(): void {
    this.search.cancel();
    this.peer.cancelOfferRetry();
  }

  private releaseCamera(): void {
    const { localStream } = this.store.getSnapshot();
    stopStream(localStream);
    if (localStream) this.store.update(null, { localStream: null });
  }
}
