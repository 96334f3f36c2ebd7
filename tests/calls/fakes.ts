// Test doubles for the call session: media streams whose tracks record stop() and enabled, a
// socket that records what was sent and lets the test emit server events, and a PeerJS peer and
// media connections driven by hand.
import type { ClientEventName, ServerEventName, ServerEvents } from "../../src/realtime/protocol.ts";
import type { MediaCallLike, PeerFailure, PeerLike, TonesLike } from "../../islands/calls/ports.ts";
import type { VideoSocket } from "../../islands/calls/video-context.ts";
import { AckError } from "../../islands/lib/socket.ts";

export class FakeTrack {
  enabled = true;
  readyState: "live" | "ended" = "live";
  constructor(readonly kind: "audio" | "video") {}
  stop(): void {
    this.readyState = "ended";
  }
}

export interface FakeStream {
  id: string;
  tracks: FakeTrack[];
  stream: MediaStream;
}

let streams = 0;

/** A stream with one audio and one video track. */
export function fakeStream(id = `stream-${++streams}`): FakeStream {
  const tracks = [new FakeTrack("audio"), new FakeTrack("video")];
  const shape = {
    id,
    getTracks: () => [...tracks],
    getAudioTracks: () => tracks.filter((t) => t.kind === "audio"),
    getVideoTracks: () => tracks.filter((t) => t.kind === "video"),
  };
  // The code under test reads only these members of a MediaStream.
  return { id, tracks, stream: shape as unknown as MediaStream };
}

type Handler = (data: never) => void;

/** The realtime client as calls and roulette see it; `emit` plays the server. */
export class FakeSocket implements VideoSocket {
  sent: { event: string; data: unknown }[] = [];
  connected = true;
  private handlers = new Map<string, Set<Handler>>();
  private statusListeners = new Set<(status: string) => void>();

  on<K extends ServerEventName>(event: K, handler: (data: ServerEvents[K]) => void): () => void {
    const set = this.handlers.get(event) ?? new Set<Handler>();
    this.handlers.set(event, set);
    set.add(handler);
    return () => set.delete(handler);
  }

  /** Events the server refuses (their ack answers this error), by event name. */
  refusals = new Map<ClientEventName, { code: string; message: string }>();

  send<K extends ClientEventName>(event: K, data: unknown): boolean {
    if (!this.connected) return false;
    this.sent.push({ event, data });
    return true;
  }

  /** Recorded like send; the ack answers {} unless the event is in `refusals`. */
  request<K extends ClientEventName>(event: K, data: unknown): Promise<unknown> {
    if (!this.send(event, data)) return Promise.reject(new AckError("disconnected", "Not connected"));
    const refusal = this.refusals.get(event);
    return refusal ? Promise.reject(new AckError(refusal.code, refusal.message)) : Promise.resolve({});
  }

  onStatus(listener: (status: string) => void): () => void {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }

  emit<K extends ServerEventName>(event: K, data: ServerEvents[K]): void {
    for (const handler of [...(this.handlers.get(event) ?? [])]) (handler as (d: ServerEvents[K]) => void)(data);
  }

  setStatus(status: string): void {
    this.connected = status === "connected";
    for (const listener of [...this.statusListeners]) listener(status);
  }

  listeners(event: ServerEventName): number {
    return this.handlers.get(event)?.size ?? 0;
  }

  eventsNamed(event: ClientEventName): unknown[] {
    return this.sent.filter((s) => s.event === event).map((s) => s.data);
  }
}

export class FakeMediaCall implements MediaCallLike {
  answeredWith: MediaStream | null = null;
  closed = false;
  peerConnection: RTCPeerConnection | null = null;
  private streamHandlers: ((s: MediaStream) => void)[] = [];
  private closeHandlers: (() => void)[] = [];
  private errorHandlers: ((e: PeerFailure) => void)[] = [];

  constructor(
    readonly peer: string,
    readonly sentStream: MediaStream | null = null,
  ) {}

  onStream(handler: (stream: MediaStream) => void): void {
    this.streamHandlers.push(handler);
  }
  onClose(handler: () => void): void {
    this.closeHandlers.push(handler);
  }
  onError(handler: (error: PeerFailure) => void): void {
    this.errorHandlers.push(handler);
  }
  answer(stream: MediaStream): void {
    this.answeredWith = stream;
  }
  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const h of this.closeHandlers) h();
  }

  emitStream(stream: MediaStream): void {
    for (const h of this.streamHandlers) h(stream);
  }
  emitError(type: string): void {
    for (const h of this.errorHandlers) h({ type, message: type });
  }
  /** The remote side hung up. */
  remoteClose(): void {
    this.close();
  }
}

export class FakePeer implements PeerLike {
  id: string | null = null;
  destroyed = false;
  disconnected = false;
  reconnects = 0;
  calls: FakeMediaCall[] = [];
  private openHandlers: ((id: string) => void)[] = [];
  private callHandlers: ((c: MediaCallLike) => void)[] = [];
  private errorHandlers: ((e: PeerFailure) => void)[] = [];

  onOpen(handler: (id: string) => void): void {
    this.openHandlers.push(handler);
  }
  onCall(handler: (call: MediaCallLike) => void): void {
    this.callHandlers.push(handler);
  }
  onError(handler: (error: PeerFailure) => void): void {
    this.errorHandlers.push(handler);
  }
  call(peerId: string, stream: MediaStream): MediaCallLike {
    const call = new FakeMediaCall(peerId, stream);
    this.calls.push(call);
    return call;
  }
  reconnect(): void {
    this.reconnects++;
    this.disconnected = false;
  }
  destroy(): void {
    this.destroyed = true;
  }

  open(id: string): void {
    this.id = id;
    for (const h of this.openHandlers) h(id);
  }
  incoming(call: FakeMediaCall): void {
    for (const h of this.callHandlers) h(call);
  }
  fail(type: string): void {
    for (const h of this.errorHandlers) h({ type, message: type });
  }
}

export class FakeTones implements TonesLike {
  log: string[] = [];
  play(name: string): void {
    this.log.push(`play:${name}`);
  }
  stop(): void {
    this.log.push("stop");
  }
  playThenClose(name: string): void {
    this.log.push(`final:${name}`);
  }
  close(): void {
    this.log.push("close");
  }
}
