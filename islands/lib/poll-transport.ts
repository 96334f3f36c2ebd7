// The realtime connection over HTTP long-polling (server: src/realtime/poll-routes.ts), for
// networks where a WebSocket cannot be opened. It looks like a WebSocket to RealtimeClient
// (SocketLike): the same frames arrive through onmessage, and it closes with the codes /ws uses.
// The bearer token goes in the Authorization header of every request, never in the URL.
import type { SocketLike } from "./socket.ts";

/** Frames in one send and their size: the server's limits (src/realtime/poll-limits.ts). */
const MAX_SEND_FRAMES = 50;
const MAX_SEND_CHARS = 60 * 1024;
/** The server holds a poll 25 s; past this without an answer the network lost it. */
const POLL_TIMEOUT_MS = 40_000;
/** A failed poll is tried again this many times, a second apart, before the connection counts as lost. */
const POLL_RETRIES = 2;

export type Fetcher = (url: string, init: RequestInit) => Promise<Response>;

interface Closing {
  code: number;
  reason: string;
}

/** What an HTTP refusal means as a close code: the same ones RealtimeClient knows from /ws. */
function closingFor(status: number): Closing {
  if (status === 401) return { code: 4401, reason: "Please sign in" };
  if (status === 429) return { code: 4429, reason: "Too many open connections" };
  return { code: 1006, reason: `HTTP ${status}` };
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export class PollingSocket implements SocketLike {
  readyState = 0;
  onopen: ((ev: Event) => void) | null = null;
  onclose: ((ev: CloseEvent) => void) | null = null;
  onmessage: ((ev: MessageEvent) => void) | null = null;
  onerror: ((ev: Event) => void) | null = null;
  /** The session's id once open: a WebSocket opened with `resume=<sid>` takes it over. */
  sid: string | null = null;
  private queue: string[] = [];
  private sending: Promise<void> | null = null;
  /** The server handed the session to a WebSocket: polls stop, sends still go out. */
  private moved = false;
  private moveWaiter: ((moved: boolean) => void) | null = null;
  private readonly aborter = new AbortController();

  constructor(
    private readonly base: string,
    private readonly token: string,
    private readonly fetcher: Fetcher = (url, init) => fetch(url, init),
  ) {
    // A WebSocket ends with its page; a polling session would live on at the server until its idle
    // sweep (45 s and more), holding one of the user's connections (SOCKET_CAP) and their
    // presence. A page put in the back/forward cache (persisted) may come back and keeps it.
    globalThis.addEventListener?.("pagehide", this.onPageHide);
    void this.open();
  }

  private readonly onPageHide = (event: Event) => {
    if (!(event as PageTransitionEvent).persisted) this.close();
  };

  send(data: string): void {
    if (this.readyState !== 1) return;
    this.queue.push(data);
    if (!this.sending) this.sending = this.flush().finally(() => (this.sending = null));
  }

  close(): void {
    globalThis.removeEventListener?.("pagehide", this.onPageHide);
    if (this.readyState >= 2) return;
    const sid = this.sid;
    this.readyState = 3;
    this.aborter.abort();
    // keepalive: the page may be closing; the server ends the session at once instead of after 45 s.
    if (sid) void this.request("POST", `/ws/poll/close?sid=${encodeURIComponent(sid)}`, { keepalive: true, signal: undefined }).catch(() => undefined);
  }

  /**
   * A WebSocket opened with this session's id: resolves true once a poll has delivered the
   * session's last frames and the server's word that the WebSocket holds it now (x-poll-end
   * 4000), so the caller reads the WebSocket's frames only after these; false if that word does
   * not come in time (the "WebSocket" never reached the server: a proxy or a mock answered it),
   * and polling goes on. Sends still queued go out to the same session either way.
   */
  handOver(timeoutMs: number): Promise<boolean> {
    return new Promise((resolve) => {
      const settle = (moved: boolean) => {
        clearTimeout(timer);
        if (this.moveWaiter === settle) this.moveWaiter = null;
        resolve(moved);
      };
      const timer = setTimeout(() => settle(false), timeoutMs);
      this.moveWaiter = settle;
    });
  }

  private request(method: string, path: string, init: RequestInit = {}): Promise<Response> {
    return this.fetcher(this.base + path, {
      method,
      headers: { authorization: `Bearer ${this.token}`, ...(init.body ? { "content-type": "application/json" } : {}) },
      credentials: "same-origin",
      cache: "no-store",
      signal: this.aborter.signal,
      ...init,
    });
  }

  private async open(): Promise<void> {
    let response: Response;
    try {
      response = await this.request("POST", "/ws/poll/open");
      if (!response.ok) return this.end(closingFor(response.status));
      const body = (await response.json()) as { sid?: unknown };
      if (typeof body.sid !== "string") return this.end({ code: 1006, reason: "No session" });
      this.sid = body.sid;
    } catch {
      return this.end({ code: 1006, reason: "Network error" });
    }
    if (this.readyState !== 0) return;
    this.readyState = 1;
    this.onopen?.(new Event("open"));
    void this.loop();
    if (this.queue.length > 0 && !this.sending) this.sending = this.flush().finally(() => (this.sending = null));
  }

  private async loop(): Promise<void> {
    let failures = 0;
    while (this.readyState === 1 && !this.moved) {
      const ok = await this.pollOnce().then(
        () => true,
        () => false,
      );
      if (ok) failures = 0;
      else if (++failures > POLL_RETRIES) return this.end({ code: 1006, reason: "Network error" });
      else await wait(1000);
    }
  }

  /** One poll: its frames delivered in order. Throws on a network error (tried again); ends the socket on a refusal. */
  private async pollOnce(): Promise<void> {
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(), POLL_TIMEOUT_MS);
    const stop = () => timeout.abort();
    this.aborter.signal.addEventListener("abort", stop);
    try {
      const response = await this.request("GET", `/ws/poll?sid=${encodeURIComponent(this.sid ?? "")}`, { signal: timeout.signal });
      if (!response.ok) return this.end(closingFor(response.status));
      const frames = (await response.json()) as unknown[];
      for (const frame of frames) this.onmessage?.({ data: JSON.stringify(frame) } as MessageEvent);
      const end = response.headers.get("x-poll-end");
      if (end === "4000" && this.moveWaiter) {
        // Moved to the WebSocket the client holds: no more polls. Sends made until the client
        // switches still go here and reach the same session (their answers come on the WebSocket).
        this.moved = true;
        this.moveWaiter(true);
      } else if (end) this.end({ code: end === "4000" ? 1006 : Number(end), reason: response.headers.get("x-poll-end-reason") ?? "" });
    } finally {
      clearTimeout(timer);
      this.aborter.signal.removeEventListener("abort", stop);
    }
  }

  /** Sends what is queued, in order, one request at a time, as many frames as fit in one. */
  private async flush(): Promise<void> {
    if (!this.sid) return;
    try {
      // While handing over, what was queued before the WebSocket opened still goes out here.
      while (this.queue.length > 0 && this.readyState === 1) {
        let chars = 0;
        let count = 0;
        while (count < this.queue.length && count < MAX_SEND_FRAMES && (count === 0 || chars + this.queue[count]!.length < MAX_SEND_CHARS)) chars += this.queue[count++]!.length;
        const batch = this.queue.splice(0, count);
        const response = await this.request("POST", `/ws/poll/send?sid=${encodeURIComponent(this.sid)}`, { body: `[${batch.join(",")}]`, signal: undefined });
        if (response.status === 429) {
          // The previous send is still being dispatched: wait, then go on in order.
          this.queue.unshift(...batch);
          await wait(200);
        } else if (response.status === 413) {
          // As /ws closes a frame past 64 KB with 1009.
          return this.end({ code: 1009, reason: "Frame too large" });
        } else if (!response.ok) return this.end(closingFor(response.status));
      }
    } catch {
      this.end({ code: 1006, reason: "Network error" });
    }
  }

  private end(why: Closing): void {
    if (this.readyState === 3) return;
    this.readyState = 3;
    this.aborter.abort();
    this.moveWaiter?.(false);
    this.onclose?.({ code: why.code, reason: why.reason, wasClean: false } as CloseEvent);
  }
}
