// One video call from camera loading to hang-up (spec sections 4 "Video call", 5 "Calls" and 8).
// It owns the local stream and the tones, drives the pure reducer in call-state.ts, talks to the
// server over the socket, and tells the overlay when to close. The PeerJS side lives in
// call-link.ts. Everything it touches comes in through CallDeps, so tests run it with fakes.
// The receiver's camera and microphone start only when they press Accept (issue 7): a call from
// a stranger must never turn anyone's camera on.
import { BITRATE_CAP_DELAY_MS, capVideoSenders } from "../media/bitrate.ts";
import { openCameraAndMicrophone, stopStream, type GetUserMedia } from "../media/constraints.ts";
import { t } from "../i18n.ts";
import { callMediaErrorText, UNSUPPORTED_BROWSER_ALERT } from "../media/errors.ts";
import { CallLink } from "./call-link.ts";
import { callReducer, initialCallState, isReady, type CallAction, type CallRequest, type CallState } from "./call-state.ts";
import { noAnswerText, peerErrorText, rejectionText } from "./peer-config.ts";
import type { CallSocket, MediaCallLike, PeerLike, TonesLike } from "./ports.ts";
import { Timers } from "../lib/timers.ts";
import { CONNECT_TIMEOUT_MS, watchConnectionKind } from "./connection-kind.ts";

export interface CallDeps {
  socket: CallSocket;
  /** Loads PeerJS and creates a peer on the app's signalling endpoint. */
  createPeer: () => Promise<PeerLike>;
  /** Null when the browser has no navigator.mediaDevices. */
  getUserMedia: GetUserMedia | null;
  tones: TonesLike;
  alert: (text: string) => void;
  reload: () => void;
  /** The overlay closes; `notice` is a message for a toast, if any. */
  onClose: (notice: string | null) => void;
  /** How long the media connection may take to connect once answered (tests shorten it). */
  connectTimeoutMs?: number;
}

/** The server ends a call nobody answered after a minute (API.md "Safety"), as a phone does. */
export const NO_ANSWER_TIMEOUT_MS = 60_000;
/**
 * The caller's own timer only covers a server that never said so: it runs a little longer, so
 * that the server's call_rejected "no_answer" normally decides and both sides agree on the end.
 */
export const CALLER_GIVE_UP_MS = NO_ANSWER_TIMEOUT_MS + 5_000;

export class CallSession {
  private state: CallState;
  private listeners = new Set<() => void>();
  private link: CallLink;
  private unsubscribe: (() => void)[] = [];
  private readonly timers = new Timers();
  private rang = false;
  private finished = false;
  localStream: MediaStream | null = null;
  remoteStream: MediaStream | null = null;
  /** The media connection's own RTCPeerConnection, once its stream arrived. */
  private connection: RTCPeerConnection | null = null;
  private stopWatching: (() => void) | null = null;

  constructor(
    request: CallRequest,
    private readonly deps: CallDeps,
  ) {
    this.state = initialCallState(request);
    this.link = new CallLink(
      deps.createPeer,
      () => this.localStream,
      {
        open: (peerId) => {
          this.dispatch({ type: "peer_open", peerId });
          this.ring();
        },
        remoteStream: (stream, call) => this.onRemoteStream(stream, call),
        remoteClosed: () => this.hangUp(t("call.ended_by", { name: this.contact.name })),
        failed: (type, reload) => {
          this.hangUp(peerErrorText(type, this.contact.name));
          if (reload) setTimeout(() => this.deps.reload(), reload.afterMs);
        },
        notice: (text) => this.dispatch({ type: "notice", text }),
      },
      request.role === "caller",
    );
  }

  getState = (): CallState => this.state;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private dispatch(action: CallAction): void {
    const next = callReducer(this.state, action);
    if (next === this.state) return;
    this.state = next;
    for (const listener of [...this.listeners]) listener();
  }

  private get contact() {
    return this.state.contact;
  }

  /** The caller: camera first, then the peer. The receiver: the peer only, and it rings. */
  async start(): Promise<void> {
    const { socket } = this.deps;
    this.unsubscribe.push(
      socket.on("call_answered", ({ answererPeerId }) => this.onAnswered(answererPeerId)),
      socket.on("call_rejected", ({ reason }) => {
        if (this.state.role === "caller") this.finish(rejectionText(reason, this.contact.name));
      }),
      socket.on("call_ended", () => this.onRemoteEnded()),
      socket.on("error", ({ event, message }) => {
        // call_user refused (adult_confirmation_required, rate_limited): the server's text says why.
        if (event === "call_user" && this.state.role === "caller") this.finish(message);
      }),
    );
    if (!this.deps.getUserMedia) {
      this.deps.alert(UNSUPPORTED_BROWSER_ALERT);
      return this.abandon();
    }
    if (this.state.role === "caller" && !(await this.openCamera())) return;
    try {
      await this.link.open();
    } catch (error) {
      console.error("Could not start the call connection", error);
      this.abandon(t("call.not_connected"));
    }
  }

  /** Opens camera and microphone; false (after the alert, and the call given up) when it fails. */
  private async openCamera(): Promise<boolean> {
    const getUserMedia = this.deps.getUserMedia;
    if (!getUserMedia) return false;
    let stream: MediaStream;
    try {
      stream = await openCameraAndMicrophone(getUserMedia);
    } catch (error) {
      if (this.finished) return false;
      this.deps.alert(callMediaErrorText(error));
      this.abandon();
      return false;
    }
    if (this.finished) {
      stopStream(stream);
      return false;
    }
    this.localStream = stream;
    this.dispatch({ type: "media_ready" });
    return true;
  }

  /** Once camera, peer and id are ready: the caller places the call, the receiver hears it ring. */
  private ring(): void {
    if (this.rang || !isReady(this.state) || this.finished) return;
    this.rang = true;
    this.link.signalled = true;
    if (this.state.role === "caller") {
      this.deps.socket.send("call_user", { receiverId: this.contact.id, callerPeerId: this.state.peerId ?? "" });
      this.deps.tones.play("outgoing");
      this.timers.later(() => {
        if (this.state.phase === "ringing") this.hangUp(noAnswerText(this.contact.name));
      }, CALLER_GIVE_UP_MS);
    } else {
      this.deps.tones.play("ringtone");
    }
  }

  /**
   * Receiver: Accept starts the camera ("Setting up camera..."), then calls the caller back with
   * it and tells the server. Nothing touched the camera before this press.
   */
  async accept(): Promise<void> {
    const { role, phase, callerPeerId, peerId } = this.state;
    if (role !== "receiver" || phase !== "ringing") return;
    if (!peerId) {
      console.error("Cannot accept the call: the call connection is not ready");
      return;
    }
    this.deps.tones.stop();
    this.dispatch({ type: "accepted" });
    if (!(await this.openCamera())) return;
    if (!callerPeerId) {
      console.error("Cannot call back: the caller's peer id is missing");
      return;
    }
    this.link.callTo(callerPeerId);
    this.deps.socket.send("answer_call", { callerId: this.contact.id, answererPeerId: peerId });
    this.limitConnecting();
  }

  /** Caller: the receiver's peer id arrived (the "signal"); its call back may already be waiting. */
  private onAnswered(answererPeerId: string): void {
    if (this.state.role !== "caller" || this.finished) return;
    this.deps.tones.stop();
    this.dispatch({ type: "answered", answererPeerId });
    this.link.expect(answererPeerId);
    this.limitConnecting();
  }

  /**
   * A relay that refuses us (a wrong or expired credential) leaves the connection `new` for ever
   * in Chromium, and PeerJS reports nothing: past the limit the call ends on the failure path.
   * The media may arrive before ICE connects, so only the connection's own state counts.
   */
  private limitConnecting(): void {
    this.timers.later(() => {
      if (this.finished || this.connection?.connectionState === "connected") return;
      console.error(`Call: no connection within ${this.connectTimeoutMs / 1000} s (see any ICE server error above)`);
      this.hangUp(peerErrorText("negotiation-failed", this.contact.name));
    }, this.connectTimeoutMs);
  }

  private get connectTimeoutMs(): number {
    return this.deps.connectTimeoutMs ?? CONNECT_TIMEOUT_MS;
  }

  private onRemoteStream(stream: MediaStream, call: MediaCallLike): void {
    // PeerJS reports a stream once per track: the second report of the same stream is ignored.
    if (this.finished || this.remoteStream?.id === stream.id) return;
    this.remoteStream = stream;
    this.deps.tones.stop();
    this.dispatch({ type: "remote_stream", streamId: stream.id });
    this.deps.tones.play("connected");
    const connection = call.peerConnection;
    if (connection) {
      this.connection = connection;
      this.stopWatching?.();
      this.stopWatching = watchConnectionKind(connection, (kind) => this.dispatch({ type: "connection_kind", kind }));
    }
    this.timers.later(() => {
      const pc = call.peerConnection;
      if (pc && this.link.isCurrent(call)) void capVideoSenders(pc.getSenders());
    }, BITRATE_CAP_DELAY_MS);
  }

  toggleMute(): void {
    const track = this.localStream?.getAudioTracks()[0];
    if (!track || this.finished) return;
    track.enabled = !track.enabled;
    this.dispatch({ type: "toggle_mute" });
  }

  toggleCamera(): void {
    const track = this.localStream?.getVideoTracks()[0];
    if (!track || this.finished) return;
    track.enabled = !track.enabled;
    this.dispatch({ type: "toggle_camera" });
  }

  /** End or Cancel: everything stops, and the other side hears of it. */
  hangUp(notice: string | null = null): void {
    if (this.finished) return;
    const wasRinging = this.rang;
    this.cleanUp();
    if (wasRinging) this.deps.socket.send("end_call", { receiverId: this.contact.id });
    this.deps.tones.playThenClose("ended");
    this.deps.onClose(notice);
  }

  /** Receiver: Decline. */
  decline(): void {
    if (this.finished) return;
    this.cleanUp();
    this.deps.socket.send("reject_call", { callerId: this.contact.id });
    this.deps.tones.close();
    this.deps.onClose(null);
  }

  /** The overlay went away without a button (the page changed): leave the call properly. */
  dispose(): void {
    if (this.state.role === "receiver" && !this.state.accepted) this.decline();
    else this.hangUp();
  }

  private onRemoteEnded(): void {
    if (this.finished) return;
    const { phase, role } = this.state;
    // Ringing here and ended elsewhere: the caller gave up, nobody answered for a minute, or
    // another tab of mine answered.
    const notice = phase === "ringing" && role === "receiver" ? null : t("call.ended_by", { name: this.contact.name });
    if (phase !== "connected") return this.finish(notice);
    this.cleanUp();
    this.deps.tones.playThenClose("ended");
    this.deps.onClose(notice);
  }

  /** Closes without telling the server: it told us. */
  private finish(notice: string | null): void {
    if (this.finished) return;
    this.cleanUp();
    this.deps.tones.close();
    this.deps.onClose(notice);
  }

  /** Setting up failed: a receiver declines, so that the caller is not left ringing. */
  private abandon(notice: string | null = null): void {
    if (this.state.role === "receiver") {
      if (this.finished) return;
      this.cleanUp();
      this.deps.socket.send("reject_call", { callerId: this.contact.id });
      this.deps.tones.close();
      this.deps.onClose(notice);
    } else this.finish(notice);
  }

  private cleanUp(): void {
    this.finished = true;
    this.timers.clear();
    this.stopWatching?.();
    this.stopWatching = null;
    for (const off of this.unsubscribe) off();
    this.unsubscribe = [];
    this.deps.tones.stop();
    this.link.close();
    stopStream(this.localStream);
    this.dispatch({ type: "ended" });
  }

}
