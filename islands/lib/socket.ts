// The realtime client over /ws (API.md "Realtime"): the {event, data, ack?} envelope, acks,
// reconnects (1 s doubling to 5 s, 10 attempts, 10 s connect timeout) and a ping every 15 s.
// Where a WebSocket cannot be opened it falls back to HTTP long-polling (poll-transport.ts, the
// same frames), and tries the WebSocket again in the background: the server hands the polling
// session over to it, and the frames of the last poll are read before the WebSocket's.
//
// For the call and roulette screens: one shared client per page. Get it with getRealtime(),
// listen with `client.on("incoming_call", handler)` (returns an unsubscribe function), send with
// `client.send("call_user", {...})` or `client.request(...)` when an ack is wanted, and follow the
// connection with `client.onStatus(listener)`.
import type { ClientEventName, ClientEvents, Message, ServerEvents } from "../../src/realtime/protocol.ts";
import { perf } from "./perf.ts";
import { PollingSocket } from "./poll-transport.ts";
import { t } from "../i18n.ts";

/** Older servers sent single read receipts; the spec still lists the event (section 7). */
export interface LegacyServerEvents {
  message_read: { messageId: number; receiverId: number; readAt: string };
}
export type ServerEventMap = ServerEvents & LegacyServerEvents;
export type ServerEventKey = keyof ServerEventMap;

/** What an acknowledged client event answers. */
export interface AckReplies {
  send_message: { message: Message };
  messages_read: { updatedCount: number };
  edit_message: ServerEvents["message_edited"];
  delete_message: ServerEvents["message_deleted"];
  react: ServerEvents["message_reaction"];
}
export type AckReply<K extends ClientEventName> = K extends keyof AckReplies ? AckReplies[K] : Record<string, unknown>;

export type ConnectionStatus =
  | "idle"
  | "connecting"
  | "connected"
  | "reconnecting"
  | "failed"
  | "unauthorized"
  | "banned"
  | "closed";

export class AckError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "AckError";
  }
}

/** The part of a WebSocket the client uses, so tests can hand in a fake. */
export interface SocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((ev: Event) => void) | null;
  onclose: ((ev: CloseEvent) => void) | null;
  onmessage: ((ev: MessageEvent) => void) | null;
  onerror: ((ev: Event) => void) | null;
}

/** The polling fallback as the client sees it (PollingSocket). */
export interface PollingLike extends SocketLike {
  /** Known once open: a WebSocket opened with `resume=<sid>` takes the session over. */
  readonly sid: string | null;
  /** Resolves true once the server says a WebSocket holds the session (after its last frames), false after `timeoutMs`. */
  handOver(timeoutMs: number): Promise<boolean>;
}

export type Transport = "websocket" | "polling";

export interface RealtimeOptions {
  url: string;
  createSocket?: (url: string) => SocketLike;
  /** The long-polling fallback, used when a WebSocket cannot be opened; none: WebSocket only. */
  createPolling?: (() => PollingLike) | null;
  /** While polling, how long before the WebSocket is tried again in the background. */
  upgradeRetryMs?: number;
  /** With a fallback: how long an open WebSocket may stay silent before it counts as not opened. */
  confirmMs?: number;
  maxAttempts?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  connectTimeoutMs?: number;
  pingIntervalMs?: number;
  ackTimeoutMs?: number;
}

export const RECONNECT = { attempts: 10, baseMs: 1000, maxMs: 5000, connectTimeoutMs: 10_000 } as const;
export const PING_INTERVAL_MS = 15_000;
/** While polling, the WebSocket is tried again this often (a network that blocked it may stop). */
export const UPGRADE_RETRY_MS = 30_000;
/**
 * With a fallback, a WebSocket counts as opened only once the server answers on it (the ping
 * sent at open): a proxy or a test harness may "open" a socket that never reaches the server.
 */
export const CONFIRM_MS = 5_000;
const OPEN = 1;
/** The server closes a revoked session's sockets with this code: reconnecting cannot help. */
const UNAUTHORIZED_CLOSE = 4401;
/** A moderator banned this account (API.md "Moderation"): never reconnect. */
const BANNED_CLOSE = 4403;
type EndedBy = "unauthorized" | "banned" | null;
const endedBy = (code: number): EndedBy => (code === UNAUTHORIZED_CLOSE ? "unauthorized" : code === BANNED_CLOSE ? "banned" : null);

/** Delay before reconnect attempt n (1-based): 1 s, doubling, at most 5 s. */
export function reconnectDelay(attempt: number, baseMs: number = RECONNECT.baseMs, maxMs: number = RECONNECT.maxMs): number {
  return Math.min(baseMs * 2 ** Math.max(0, attempt - 1), maxMs);
}

type Listener = (data: unknown) => void;
interface Pending {
  resolve: (data: unknown) => void;
  reject: (error: Error) => void;
  timer: ReturnType<typeof setTimeout>;
}

export class RealtimeClient {
  private socket: SocketLike | null = null;
  private listeners = new Map<string, Set<Listener>>();
  private statusListeners = new Set<(status: ConnectionStatus) => void>();
  private pending = new Map<number, Pending>();
  private nextAck = 1;
  private attempts = 0;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private connectTimer: ReturnType<typeof setTimeout> | null = null;
  private pingTimer: ReturnType<typeof setInterval> | null = null;
  private stopped = false;
  /** A WebSocket failed to open here: connect by polling until one opens in the background. */
  private preferPolling = false;
  private currentTransport: Transport | null = null;
  private upgradeTimer: ReturnType<typeof setTimeout> | null = null;
  private probe: SocketLike | null = null;
  private opts: Required<RealtimeOptions>;
  status: ConnectionStatus = "idle";

  constructor(options: RealtimeOptions) {
    this.opts = {
      createSocket: (url) => new WebSocket(url),
      maxAttempts: RECONNECT.attempts,
      baseDelayMs: RECONNECT.baseMs,
      maxDelayMs: RECONNECT.maxMs,
      connectTimeoutMs: RECONNECT.connectTimeoutMs,
      pingIntervalMs: PING_INTERVAL_MS,
      ackTimeoutMs: 10_000,
      createPolling: null,
      upgradeRetryMs: UPGRADE_RETRY_MS,
      confirmMs: CONFIRM_MS,
      ...options,
    };
  }

  get connected(): boolean {
    return this.status === "connected" && this.socket?.readyState === OPEN;
  }

  /** What carries the connection now; null while not connected. */
  get transport(): Transport | null {
    return this.connected ? this.currentTransport : null;
  }

  connect(): void {
    this.stopped = false;
    if (this.socket) return;
    this.clearRetry();
    this.setStatus(this.attempts > 0 ? "reconnecting" : "connecting");
    const createPolling = this.preferPolling ? this.opts.createPolling : null;
    let socket: SocketLike;
    try {
      socket = createPolling ? createPolling() : this.opts.createSocket(this.opts.url);
    } catch {
      // A WebSocket the browser (or an extension, a policy) refuses to create: as one that failed to open.
      this.retryTimer = setTimeout(() => {
        this.retryTimer = null;
        this.lost(createPolling !== null, false, null);
      }, 0);
      return;
    }
    const transport: Transport = createPolling ? "polling" : "websocket";
    // A WebSocket with a fallback is on trial until the server answers on it (CONFIRM_MS).
    const onTrial = transport === "websocket" && this.opts.createPolling !== null;
    let opened = false;
    let heard = false;
    const confirmed = () => opened && (heard || !onTrial);
    this.socket = socket;
    this.connectTimer = setTimeout(() => this.dropSocket(socket, null, confirmed(), transport), this.opts.connectTimeoutMs);
    const established = () => {
      this.clearConnectTimer();
      this.attempts = 0;
      this.currentTransport = transport;
      this.setStatus("connected");
      this.pingTimer = setInterval(() => this.send("ping", {}), this.opts.pingIntervalMs);
      if (transport === "polling") this.scheduleUpgrade();
    };
    socket.onopen = () => {
      opened = true;
      if (!onTrial) return established();
      // Still "connecting" until the server answers: nothing the page sends goes into a socket
      // that may lead nowhere.
      this.clearConnectTimer();
      socket.send(JSON.stringify({ event: "ping", data: {} }));
      this.connectTimer = setTimeout(() => this.dropSocket(socket, null, confirmed(), transport), this.opts.confirmMs);
    };
    socket.onmessage = (ev) => {
      if (!heard && onTrial) {
        heard = true;
        established();
      }
      heard = true;
      this.receive(ev.data);
    };
    socket.onclose = (ev) => this.dropSocket(socket, endedBy(ev.code), confirmed(), transport);
    // An error is always followed by close, which does the work.
    socket.onerror = () => {};
  }

  private scheduleUpgrade(): void {
    if (this.upgradeTimer) clearTimeout(this.upgradeTimer);
    this.upgradeTimer = setTimeout(() => {
      this.upgradeTimer = null;
      this.tryUpgrade();
    }, this.opts.upgradeRetryMs);
  }

  /**
   * While polling: opens a WebSocket that takes the polling session over (`resume=<sid>`). Once
   * it is open, sends go through it at once; its frames wait until the last poll has delivered
   * its own, so nothing arrives twice or out of order. A failed try is made again later.
   */
  private tryUpgrade(): void {
    const polling = this.socket as PollingLike | null;
    if (!polling || this.currentTransport !== "polling" || !polling.sid || this.probe) return;
    let probe: SocketLike;
    try {
      probe = this.opts.createSocket(`${this.opts.url}&resume=${encodeURIComponent(polling.sid)}`);
    } catch {
      return this.scheduleUpgrade();
    }
    this.probe = probe;
    const waiting: unknown[] = [];
    // The server's word may come before this side sees the WebSocket open (the poll's answer and
    // the upgrade's are two connections): so the polling side listens for it from now on.
    const moved = polling.handOver(this.opts.connectTimeoutMs + this.opts.confirmMs);
    let open = false;
    let confirmed = false;
    let timer = setTimeout(() => giveUp(), this.opts.connectTimeoutMs);
    const giveUp = () => {
      clearTimeout(timer);
      this.detach(probe);
      if (probe.readyState < 2) probe.close();
      if (this.probe !== probe) return;
      this.probe = null;
      if (this.socket !== polling) return;
      // The server moved the session to a WebSocket that then failed: the session is gone, reconnect.
      if (confirmed) return this.dropSocket(polling, null, true, "polling");
      this.scheduleUpgrade();
    };
    const takeOver = () => {
      if (!open || !confirmed || this.probe !== probe || this.socket !== polling) return;
      clearTimeout(timer);
      this.probe = null;
      this.detach(polling);
      this.socket = probe;
      this.currentTransport = "websocket";
      this.preferPolling = false;
      probe.onclose = (ev) => this.dropSocket(probe, endedBy(ev.code), true, "websocket");
      probe.onmessage = (ev) => this.receive(ev.data);
      for (const data of waiting.splice(0)) this.receive(data);
    };
    void moved.then((ok) => {
      if (!ok) return giveUp();
      confirmed = true;
      // The probe already failed, but the server had moved the session to it: reconnect.
      if (this.probe !== probe) {
        if (this.socket === polling) this.dropSocket(polling, null, true, "polling");
        return;
      }
      takeOver();
    });
    probe.onclose = giveUp;
    probe.onerror = () => {};
    probe.onmessage = (ev) => waiting.push(ev.data);
    probe.onopen = () => {
      clearTimeout(timer);
      if (this.socket !== polling || this.probe !== probe) return giveUp();
      open = true;
      // Sends keep going by polling (to the same session) until the server confirms the move.
      if (!confirmed) timer = setTimeout(giveUp, this.opts.confirmMs);
      takeOver();
    };
  }

  /** Starts over with a full set of attempts (the tab became visible, the user asked). */
  reconnectNow(): void {
    // A revoked session or a ban ends the client for good: the tab becoming visible cannot help.
    if (this.socket || this.status === "unauthorized" || this.status === "banned") return;
    this.attempts = 0;
    this.connect();
  }

  /** Closes for good: no reconnects. */
  disconnect(): void {
    this.stopped = true;
    this.clearRetry();
    const socket = this.socket;
    if (socket) {
      this.detach(socket);
      socket.close(1000, "client closed");
    }
    this.teardown();
    this.setStatus("closed");
  }

  on<K extends ServerEventKey>(event: K, handler: (data: ServerEventMap[K]) => void): () => void {
    const set = this.listeners.get(event) ?? new Set<Listener>();
    this.listeners.set(event, set);
    const listener = handler as Listener;
    set.add(listener);
    return () => set.delete(listener);
  }

  onStatus(listener: (status: ConnectionStatus) => void): () => void {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }

  /** Sends an event; false when not connected (nothing is queued). */
  send<K extends ClientEventName>(event: K, data: ClientEvents[K]): boolean {
    if (!this.connected || !this.socket) return false;
    this.socket.send(JSON.stringify({ event, data }));
    return true;
  }

  /** Sends an event with an ack number and resolves with the server's answer. */
  request<K extends ClientEventName>(event: K, data: ClientEvents[K], timeoutMs: number = this.opts.ackTimeoutMs): Promise<AckReply<K>> {
    if (!this.connected || !this.socket) return Promise.reject(new AckError("disconnected", t("chat.not_connected")));
    const ack = this.nextAck++;
    const socket = this.socket;
    return new Promise<AckReply<K>>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(ack);
        reject(new AckError("timeout", t("chat.no_answer", { event })));
      }, timeoutMs);
      // Send to ack (lib/perf.ts): what a person waits for before a message shows as sent.
      const stop = perf.start(`ack ${event}`);
      const settled = (d: unknown) => {
        stop();
        resolve(d as AckReply<K>);
      };
      this.pending.set(ack, { resolve: settled, reject, timer });
      socket.send(JSON.stringify({ event, data, ack }));
    });
  }

  private receive(raw: unknown): void {
    if (typeof raw !== "string") return;
    let frame: unknown;
    try {
      frame = JSON.parse(raw);
    } catch {
      return;
    }
    if (typeof frame !== "object" || frame === null) return;
    const f = frame as { ack?: unknown; event?: unknown; data?: unknown; error?: { code?: string; message?: string } };
    if (typeof f.ack === "number" && f.event === undefined) {
      const waiting = this.pending.get(f.ack);
      if (!waiting) return;
      this.pending.delete(f.ack);
      clearTimeout(waiting.timer);
      if (f.error) waiting.reject(new AckError(f.error.code ?? "error", f.error.message ?? t("chat.request_failed_plain")));
      else waiting.resolve(f.data ?? {});
      return;
    }
    if (typeof f.event !== "string") return;
    for (const listener of [...(this.listeners.get(f.event) ?? [])]) {
      try {
        listener(f.data ?? {});
      } catch (error) {
        console.error(`realtime: handler for ${f.event} failed`, error);
      }
    }
  }

  private dropSocket(socket: SocketLike, ended: EndedBy, opened: boolean, transport: Transport): void {
    if (this.socket !== socket) return;
    this.detach(socket);
    if (socket.readyState < 2) socket.close();
    this.teardown();
    this.lost(transport === "polling", opened, ended);
  }

  /** A connection ended or never opened: fall back to polling, or try again after the delay. */
  private lost(wasPolling: boolean, opened: boolean, ended: EndedBy): void {
    if (this.stopped) return;
    if (ended) return this.setStatus(ended);
    // A WebSocket that cannot be opened: polling at once, not after the reconnect delays.
    if (!wasPolling && !opened && this.opts.createPolling && !this.preferPolling) {
      this.preferPolling = true;
      this.connect();
      return;
    }
    // Polling that cannot be opened either: the WebSocket is tried first again next time.
    if (wasPolling && !opened) this.preferPolling = false;
    if (this.attempts >= this.opts.maxAttempts) return this.setStatus("failed");
    this.attempts += 1;
    this.setStatus("reconnecting");
    const delay = reconnectDelay(this.attempts, this.opts.baseDelayMs, this.opts.maxDelayMs);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.connect();
    }, delay);
  }

  private detach(socket: SocketLike): void {
    socket.onopen = null;
    socket.onclose = null;
    socket.onmessage = null;
    socket.onerror = null;
  }

  private teardown(): void {
    this.socket = null;
    this.currentTransport = null;
    if (this.upgradeTimer) clearTimeout(this.upgradeTimer);
    this.upgradeTimer = null;
    const probe = this.probe;
    this.probe = null;
    if (probe) {
      this.detach(probe);
      if (probe.readyState < 2) probe.close();
    }
    this.clearConnectTimer();
    if (this.pingTimer) clearInterval(this.pingTimer);
    this.pingTimer = null;
    for (const [, waiting] of this.pending) {
      clearTimeout(waiting.timer);
      waiting.reject(new AckError("disconnected", t("chat.connection_closed")));
    }
    this.pending.clear();
  }

  private clearConnectTimer(): void {
    if (this.connectTimer) clearTimeout(this.connectTimer);
    this.connectTimer = null;
  }

  private clearRetry(): void {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
  }

  private setStatus(status: ConnectionStatus): void {
    if (this.status === status) return;
    this.status = status;
    for (const listener of [...this.statusListeners]) listener(status);
  }
}

let shared: RealtimeClient | null = null;
const waiting = new Set<(client: RealtimeClient) => void>();

/** The page's realtime client, once the chat screen has started it (browser only). */
export function getRealtime(): RealtimeClient | null {
  return shared;
}

/**
 * Calls back with the page's client as soon as the chat screen starts it (at once if it has).
 * For code mounted before the chat screen's effects run. Returns an unsubscribe function.
 */
export function whenRealtime(listener: (client: RealtimeClient) => void): () => void {
  if (shared && shared.status !== "closed") {
    listener(shared);
    return () => {};
  }
  waiting.add(listener);
  return () => waiting.delete(listener);
}

/** Starts (or returns) the page's client for this token, same origin, wss on https. */
export function startRealtime(token: string): RealtimeClient {
  if (shared && shared.status !== "closed") return shared;
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  shared = new RealtimeClient({
    url: `${scheme}://${location.host}/ws?token=${encodeURIComponent(token)}`,
    // Same origin; the token in the Authorization header, not the URL.
    createPolling: () => new PollingSocket(location.origin, token),
  });
  shared.connect();
  for (const listener of [...waiting]) listener(shared);
  return shared;
}
