// The PeerJS side of one call: the peer on the app's signalling endpoint, the media connection,
// which incoming media call to trust, and the retries and reconnects of spec section 8 "Call
// connection errors". CallSession decides what the person sees; this reports what happened.
import { t } from "../i18n.ts";
import { planForCallError, planForPeerError } from "./peer-config.ts";
import type { MediaCallLike, PeerFailure, PeerLike } from "./ports.ts";
import { Timers } from "../lib/timers.ts";
import { logCandidateErrors } from "./connection-kind.ts";

export interface LinkEvents {
  open(peerId: string): void;
  remoteStream(stream: MediaStream, call: MediaCallLike): void;
  /** The other side closed the media connection. */
  remoteClosed(): void;
  /** Nothing more can be done: the call ends (and with `reload`, the page reloads after `afterMs`). */
  failed(errorType: string, reload: { afterMs: number } | null): void;
  notice(text: string | null): void;
}

/** After a failed negotiation the caller waits this long for the receiver's new attempt. */
export const RETRY_WAIT_MS = 10_000;

export class CallLink {
  private peer: PeerLike | null = null;
  private media: MediaCallLike | null = null;
  /** A media call that reached the caller before call_answered named its sender. */
  private pending: MediaCallLike | null = null;
  private expectedPeer: string | null = null;
  private target: string | null = null;
  private retries = 0;
  private readonly timers = new Timers();
  private closed = false;
  /** Set once the call has rung: a lost peer id can no longer be replaced by a new one. */
  signalled = false;

  constructor(
    private readonly createPeer: () => Promise<PeerLike>,
    private readonly localStream: () => MediaStream | null,
    private readonly events: LinkEvents,
    /** The caller answers media calls; the receiver places one and answers none. */
    private readonly answersCalls: boolean,
  ) {}

  /** Creates the peer; `open` reports its id. Throws when PeerJS cannot be loaded. */
  async open(): Promise<void> {
    const peer = await this.createPeer();
    if (this.closed) return peer.destroy();
    this.peer = peer;
    peer.onOpen((id) => {
      if (this.peer !== peer || this.closed) return;
      this.events.notice(null);
      this.events.open(id);
    });
    peer.onCall((call) => this.onMediaCall(call));
    peer.onError((error) => this.onPeerError(peer, error));
  }

  /** Receiver: calls the caller back with the local stream. */
  callTo(peerId: string): void {
    const stream = this.localStream();
    if (!this.peer || !stream || this.closed) {
      console.error("Cannot call back: the camera or the call connection is not ready");
      return;
    }
    this.target = peerId;
    this.attach(this.peer.call(peerId, stream));
  }

  /** Caller: only calls from this peer id are answered (the receiver's, from call_answered). */
  expect(peerId: string): void {
    this.expectedPeer = peerId;
    const waiting = this.pending;
    this.pending = null;
    if (waiting?.peer === peerId) this.answer(waiting);
    else waiting?.close();
  }

  /** Whether `call` is still the call's media connection (a retry replaces it). */
  isCurrent(call: MediaCallLike): boolean {
    return this.media === call && !this.closed;
  }

  close(): void {
    this.closed = true;
    this.timers.clear();
    const { media, pending, peer } = this;
    this.media = null;
    this.pending = null;
    media?.close();
    pending?.close();
    peer?.destroy();
  }

  private onMediaCall(call: MediaCallLike): void {
    if (this.closed || !this.answersCalls) return call.close();
    if (this.expectedPeer === null) {
      this.pending?.close();
      this.pending = call;
    } else if (call.peer === this.expectedPeer) this.answer(call);
    else call.close();
  }

  private answer(call: MediaCallLike): void {
    const stream = this.localStream();
    if (!stream) return call.close();
    call.answer(stream);
    this.attach(call);
  }

  private attach(call: MediaCallLike): void {
    const previous = this.media;
    this.media = call;
    // A retried call replaces the failed one; closing the old one must not end the call.
    previous?.close();
    const pc = call.peerConnection;
    if (pc && typeof pc.addEventListener === "function") logCandidateErrors(pc, "Call");
    call.onStream((stream) => {
      if (this.isCurrent(call)) this.events.remoteStream(stream, call);
    });
    call.onClose(() => {
      if (this.isCurrent(call)) this.events.remoteClosed();
    });
    call.onError((error) => this.onCallError(call, error));
  }

  private onCallError(call: MediaCallLike, error: PeerFailure): void {
    if (!this.isCurrent(call)) return;
    console.warn(`Media connection error (${error.type}): ${error.message}`);
    const plan = planForCallError(error.type, this.retries);
    if (plan.action === "end") return this.events.failed(error.type, null);
    this.retries++;
    // Detach first: the library closes the failed connection right after this error.
    this.media = null;
    this.events.notice(t("chat.reconnecting"));
    const target = this.target;
    if (target !== null) this.timers.later(() => this.callTo(target), plan.afterMs);
    else this.timers.later(() => this.media === null && this.events.failed(error.type, null), RETRY_WAIT_MS);
  }

  private onPeerError(peer: PeerLike, error: PeerFailure): void {
    if (this.peer !== peer || this.closed) return;
    console.warn(`Call connection error (${error.type}): ${error.message}`);
    const plan = planForPeerError(error.type);
    if (plan.action === "end") return this.events.failed(error.type, null);
    if (plan.action === "reload") return this.events.failed(error.type, { afterMs: plan.afterMs });
    this.events.notice(t("chat.reconnecting"));
    this.timers.later(() => this.reconnect(peer), plan.afterMs);
  }

  /** Back to the signalling server with the same id; a peer that never rang starts over. */
  private reconnect(peer: PeerLike): void {
    if (this.closed || this.peer !== peer) return;
    if (!peer.destroyed && peer.disconnected) return peer.reconnect();
    if (!peer.destroyed) return this.events.notice(null);
    if (this.signalled) return this.events.failed("socket-closed", null);
    this.peer = null;
    this.open().catch(() => this.events.failed("server-error", null));
  }

}
