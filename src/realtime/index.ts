// The /ws endpoint: authenticates and admits the upgrade (socket caps, connection rate), wraps
// Bun's socket for the hub, feeds frames to the dispatcher and closes sockets that fall silent.
import { Elysia } from "elysia";
import { requestDevice } from "../auth/request-device.ts";
import { liveSession } from "../auth/service.ts";
import { checkSession, onSessionsEnded, type Session } from "../auth/sessions.ts";
import type { AppContext } from "../context.ts";
import { clientAddress, originAllowed } from "../http/request.ts";
import { localeOfRequest } from "../i18n/request.ts";
import type { Locale } from "../i18n/locales.ts";
import { Admission } from "./admission.ts";
import { dispatch } from "./dispatch.ts";
import { handlers } from "./handlers/index.ts";
import { announcePairing } from "./handlers/roulette.ts";
import { sendOrQueue, sendQueued, type CorkableSocket } from "./outbox.ts";
import { socketOpened, wireLifecycle } from "./lifecycle.ts";
import { pollRoutes } from "./poll-routes.ts";
import { PollSessions } from "./poll-sessions.ts";
import type { PollSocket } from "./poll-socket.ts";
import type { ClientSocket } from "./socket.ts";
import { SocketGroups } from "./socket-groups.ts";
import { setSocketLocale } from "./socket-locale.ts";
import { logFailure } from "../storage/unavailable.ts";

/** Frames larger than this close the socket with 1009 (Bun enforces it). */
export const MAX_FRAME_BYTES = 64 * 1024;

/**
 * What Bun may queue for one socket that does not read before closing it (Bun's default is
 * 16 MB, so 100 stalled sockets cost 1.6 GB; here 1,000 cost at most about 256 MB). About sixty
 * of the largest messages: only a client that has stopped reading gets that far behind, and a
 * closed client reconnects and catches up from the API. Set on the server in app.ts, so it holds
 * for /peerjs too.
 */
export const BACKPRESSURE_LIMIT_BYTES = 256 * 1024;

interface RawSocket extends CorkableSocket {
  close(code?: number, reason?: string): void;
}

/**
 * Frames a socket may send while its opening checks the session (one read): a client sends a
 * few at most before its first answer, so more than this is a flood, closed with 4429 rather
 * than held or dropped unanswered.
 */
export const EARLY_FRAMES_MAX = 64;

let lastSocketId = 0;

/** The bus topic of revoked sessions' ids. */
const SESSIONS_ENDED = "sessions.ended";

/**
 * The hub's view of one Bun socket. A class, so its methods are shared: an idle socket costs its
 * fields only, not a closure per method (issue 11: memory per idle socket).
 */
class LiveSocket implements ClientSocket {
  // Ids are only compared within this process (calls), so a counter does. Held as a number and
  // made a string when asked (a call starting): a string held per socket cost every idle one.
  private readonly serial = ++lastSocketId;
  present = true;
  lastHeardAt = Date.now();
  /** Told to close: Bun may still hand over frames that were already read, and those are dropped. */
  closing = false;

  constructor(
    private readonly raw: RawSocket,
    readonly userId: number,
    readonly sessionId: string,
    readonly address: string,
    readonly deviceId: string | null,
  ) {}

  get id(): string {
    return String(this.serial);
  }

  sendText(text: string): void {
    sendOrQueue(this.raw, text);
  }

  close(code: number, reason: string): void {
    // The first reason wins (a ban's 4403 over the 4401 of its revoked sessions).
    if (this.closing) return;
    this.closing = true;
    sendQueued(this.raw);
    this.raw.close(code, reason);
  }
}

/** What Elysia's parser made of a frame before: objects parsed, anything else left for dispatch to refuse. */
function parseFrame(message: string | Buffer): unknown {
  if (typeof message !== "string" || message.charCodeAt(0) !== 123) return message;
  try {
    return JSON.parse(message);
  } catch {
    return message;
  }
}

export function realtimeRoutes(ctx: AppContext) {
  wireLifecycle(ctx);
  // A wait for a shared interest that ends in a pairing: no frame asked for it, so it is told here.
  ctx.roulette.onLatePairing = announcePairing;
  const admission = new Admission(
    ctx.hub,
    ctx.config.socketCap,
    ctx.config.socketConnectsPerMinute,
    ctx.ports.kind === "local" ? null : ctx.ports.limits.window("socket-connects", ctx.config.socketConnectsPerMinute, 60_000),
  );

  // Silent sockets are closed; the client pings every 15 s, so 45 s means it is gone.
  const sweep = setInterval(() => {
    const cutoff = Date.now() - ctx.config.wsIdleMs;
    for (const socket of ctx.hub.allSockets()) if (socket.lastHeardAt < cutoff) socket.close(4408, "Idle timeout");
  }, Math.min(5000, ctx.config.wsIdleMs / 3));
  sweep.unref?.();

  // The open sockets of each session, so a revoked session's sockets close without a scan.
  const bySession = new SocketGroups<string>();
  // Long-polling sessions (the fallback, poll-routes.ts) are counted, closed and revoked as sockets.
  // Their outbox is capped like a /ws socket's unread frames.
  const polls = new PollSessions(ctx.config.wsIdleMs, BACKPRESSURE_LIMIT_BYTES, (socket) => {
    bySession.remove(socket.sessionId, socket);
    ctx.hub.disconnect(socket);
  });
  // Logout, a ban, "end sessions", the expiry sweep: every revoked session's sockets close now, on
  // every instance (the bus; with one process it calls the listener at once).
  const stopHearing = ctx.ports.bus.subscribe(SESSIONS_ENDED, (ids) => {
    for (const id of ids as string[]) {
      for (const socket of [...bySession.of(id)]) socket.close(4401, "Your session has ended");
      for (const upgrade of opening.get(id) ?? []) upgrade.revoked = true;
    }
  });
  const stopPushing = onSessionsEnded(ctx.db, (ids) => ctx.ports.bus.publish(SESSIONS_ENDED, ids));
  const stopListening = () => {
    stopPushing();
    stopHearing();
  };

  // Sockets whose opening is still reading their session, by session id: a revocation pushed
  // meanwhile finds them here, since they are not in bySession yet.
  const opening = new Map<string, Set<Upgrade>>();
  // A ban or "end sessions" meanwhile too: the hub has no socket of theirs to close yet, and the
  // revocation that follows would close them with a bare 4401, without the ban's notice. Rare,
  // and few sockets are opening at any time: a scan.
  ctx.hub.onExpel((userId, code, reason, notice) => {
    for (const upgrades of opening.values()) for (const upgrade of upgrades) upgrade.expel(userId, { code, reason, notice });
  });

  /**
   * Bun's `ws.data` for one /ws socket. Elysia's `.ws()` copies its whole request context into each
   * socket's data with a dozen closures (about 4 KB an idle socket, measured by
   * tests/realtime/socket-memory.ts), so /ws upgrades itself: the data is this object, its
   * methods shared, and Elysia's server-wide websocket handler calls them (`ws.data.open(ws)`...).
   */
  class Upgrade {
    socket: LiveSocket | PollSocket | null = null;
    /** Frames that arrived while the opening read the session; null before and after. */
    private early: (string | Buffer)[] | null = null;
    /** The session ended while the opening read it. */
    revoked = false;
    /** The user was put out (hub.expel) while the opening read the session: how to close. */
    private expelled: { code: number; reason: string; notice: string | undefined } | null = null;
    /** Bun closed the socket before the opening ended. */
    private gone = false;

    constructor(
      private readonly userId: number,
      private readonly sessionId: string,
      private readonly address: string,
      private readonly deviceId: string | null,
      /** The polling session this socket takes over (`?resume=<sid>`), if any. */
      private readonly resume: string | null,
      /** The language of its refusals (socket-locale.ts). */
      private readonly locale: Locale,
    ) {}

    open(ws: RawSocket): void {
      // Revoked between the upgrade and now: the push that closes its sockets found none yet, so
      // the session is read again. Bun calls this synchronously and the read is asynchronous:
      // frames arriving meanwhile wait in `early`, and a revocation pushed meanwhile marks
      // `revoked` (registered before the read starts, so none falls between the two).
      this.early = [];
      let waiting = opening.get(this.sessionId);
      if (!waiting) opening.set(this.sessionId, (waiting = new Set()));
      waiting.add(this);
      liveSession(ctx.db, this.sessionId, ctx.config.sessionTtlMs).then(
        (found) => this.checked(ws, found),
        (error: unknown) => {
          logFailure(ctx.log, "socket session check failed", error);
          this.checked(ws, undefined);
        },
      );
    }

    /** The opening's session read ended: `undefined` when it failed (the database away). */
    private checked(ws: RawSocket, found: Session | null | undefined): void {
      const waiting = opening.get(this.sessionId);
      if (waiting?.delete(this) && waiting.size === 0) opening.delete(this.sessionId);
      const early = this.early ?? [];
      this.early = null;
      if (this.gone) return;
      const expelled = this.expelled;
      if (expelled) {
        if (expelled.notice !== undefined) ws.send(expelled.notice);
        return ws.close(expelled.code, expelled.reason);
      }
      if (found === undefined) return ws.close(1013, "Please connect again");
      if (this.revoked || !found || found.user.id !== this.userId) return ws.close(4401, "Please sign in");
      this.admit(ws);
      // In the order they came, each started before the next as Bun would have.
      for (const frame of early) void this.message(ws, frame);
    }

    /** The first expulsion wins, as the first close reason of a LiveSocket does. */
    expel(userId: number, how: { code: number; reason: string; notice: string | undefined }): void {
      if (userId === this.userId) this.expelled ??= how;
    }

    private admit(ws: RawSocket): void {
      const poll = polls.find(this.resume, this.sessionId);
      if (this.resume !== null) {
        // It ended between the upgrade and now: the client connects afresh.
        if (!poll?.movable) return ws.close(4410, "That connection has ended");
        // Same place in the hub (presence, a call, a roulette pair), now over this socket.
        this.socket = poll;
        poll.adopt(ws);
        return;
      }
      if (!admission.fits(this.userId, this.address)) return ws.close(4429, "Too many open connections");
      const socket = (this.socket = new LiveSocket(ws, this.userId, this.sessionId, this.address, this.deviceId));
      setSocketLocale(socket, this.locale);
      bySession.add(socket.sessionId, socket);
      socketOpened(ctx, socket);
    }

    message(ws: RawSocket, message: string | Buffer): void | Promise<void> {
      const early = this.early;
      if (early) {
        if (early.length < EARLY_FRAMES_MAX) early.push(message);
        else if (!this.gone) {
          this.gone = true;
          ws.close(4429, "Too many frames before the connection was ready");
        }
        return;
      }
      const socket = this.socket;
      if (socket && !socket.closing) return dispatch(ctx, handlers, socket, parseFrame(message));
    }

    close(): void {
      this.gone = true;
      const socket = this.socket;
      if (!socket) return;
      this.socket = null;
      bySession.remove(socket.sessionId, socket);
      ctx.hub.disconnect(socket);
    }
  }

  return new Elysia()
    .use(pollRoutes(ctx, { admission, bySession, sessions: polls }))
    .get("/ws", async ({ request, query, status, server, set }) => {
      if (!originAllowed(request, ctx.config)) return status(403, { error: "This origin may not connect", code: "forbidden" });
      // Answered once a write the check started (the touch, an expired row deleted) has committed.
      const checked = await checkSession(ctx.db, ctx.config, query.token);
      if (checked.written) await checked.written;
      const found = checked.session;
      if (!found) return status(401, { error: "Please sign in", code: "unauthorized" });
      const deviceId = await requestDevice(ctx.db, request, found);
      const address = clientAddress(request, server?.requestIP(request)?.address, ctx.config);
      const resume = typeof query.resume === "string" ? query.resume : null;
      const moving = resume !== null && polls.find(resume, found.id)?.movable === true;
      if (resume !== null && !moving) return status(410, { error: "That connection has ended. Please connect again.", code: "gone" });
      let refusal = moving ? admission.admitMove(found.user.id) : admission.admit(found.user.id, address);
      if (!refusal && admission.everywhere) refusal = await admission.admitEverywhere(found.user.id);
      if (refusal) {
        set.headers["retry-after"] = String(refusal.retryAfter);
        return status(429, { error: refusal.message, code: "rate_limited" });
      }
      if (!server?.upgrade(request, { data: new Upgrade(found.user.id, found.id, address, deviceId, resume, localeOfRequest(request, found.user.locale)) })) {
        return status(400, { error: "Expected a websocket connection", code: "validation" });
      }
    })
    .onStop(() => {
      clearInterval(sweep);
      stopListening();
    });
}
