// The /ws endpoint: authenticates and admits the upgrade (socket caps, connection rate), wraps
// Bun's socket for the hub, feeds frames to the dispatcher and closes sockets that fall silent.
import { Elysia } from "elysia";
import { randomUUID } from "node:crypto";
import { sessionFor } from "../auth/service.ts";
import { onSessionsEnded } from "../auth/sessions.ts";
import type { AppContext } from "../context.ts";
import { clientAddress, originAllowed } from "../http/request.ts";
import { Admission } from "./admission.ts";
import { dispatch } from "./dispatch.ts";
import { handlers } from "./handlers/index.ts";
import { sendOrQueue, sendQueued, type CorkableSocket } from "./outbox.ts";
import { socketOpened, wireLifecycle } from "./lifecycle.ts";
import type { ClientSocket } from "./socket.ts";

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

/** Sockets told to close: Bun may still hand over frames that were already read, and those are dropped. */
const closing = new WeakSet<ClientSocket>();

function adapt(raw: RawSocket, userId: number, sessionId: string, address: string): ClientSocket {
  const socket: ClientSocket = {
    id: randomUUID(),
    userId,
    sessionId,
    address,
    present: true,
    lastHeardAt: Date.now(),
    sendText: (text) => sendOrQueue(raw, text),
    close: (code, reason) => {
      // The first reason wins (a ban's 4403 over the 4401 of its revoked sessions).
      if (closing.has(socket)) return;
      closing.add(socket);
      sendQueued(raw);
      raw.close(code, reason);
    },
  };
  return socket;
}

/** The open sockets of each session, so a revoked session's sockets close without a scan. */
class SessionSockets {
  private readonly bySession = new Map<string, Set<ClientSocket>>();

  add(socket: ClientSocket): void {
    let set = this.bySession.get(socket.sessionId);
    if (!set) this.bySession.set(socket.sessionId, (set = new Set()));
    set.add(socket);
  }

  remove(socket: ClientSocket): void {
    const set = this.bySession.get(socket.sessionId);
    if (set?.delete(socket) && set.size === 0) this.bySession.delete(socket.sessionId);
  }

  close(sessionIds: string[], code: number, reason: string): void {
    for (const id of sessionIds) for (const socket of [...(this.bySession.get(id) ?? [])]) socket.close(code, reason);
  }
}

export function realtimeRoutes(ctx: AppContext) {
  wireLifecycle(ctx);
  const sockets = new WeakMap<object, ClientSocket>();
  const admission = new Admission(ctx.hub, ctx.config.socketCap, ctx.config.socketConnectsPerMinute);

  // Silent sockets are closed; the client pings every 15 s, so 45 s means it is gone.
  const sweep = setInterval(() => {
    const cutoff = Date.now() - ctx.config.wsIdleMs;
    for (const socket of ctx.hub.allSockets()) if (socket.lastHeardAt < cutoff) socket.close(4408, "Idle timeout");
  }, Math.min(5000, ctx.config.wsIdleMs / 3));
  sweep.unref?.();

  const session = (token: unknown) => sessionFor(ctx.db, ctx.config, token);
  const bySession = new SessionSockets();
  // Logout, a ban, "end sessions", the expiry sweep: every revoked session's sockets close now.
  const stopListening = onSessionsEnded(ctx.db, (ids) => bySession.close(ids, 4401, "Your session has ended"));

  return new Elysia()
    .ws("/ws", {
      // Runs twice per upgrade (STACK-NOTES): checks only, no side effects.
      beforeHandle({ request, query, status, server, set }) {
        if (!originAllowed(request, ctx.config)) return status(403, { error: "This origin may not connect", code: "forbidden" });
        const found = session(query.token);
        if (!found) return status(401, { error: "Please sign in", code: "unauthorized" });
        const address = clientAddress(request, server?.requestIP(request)?.address, ctx.config);
        const refusal = admission.admit(request, found.user.id, address);
        if (refusal) {
          set.headers["retry-after"] = String(refusal.retryAfter);
          return status(429, { error: refusal.message, code: "rate_limited" });
        }
      },
      open(ws) {
        const found = session(ws.data.query.token);
        if (!found) return ws.close(4401, "Please sign in");
        const address = clientAddress(ws.data.request, ws.raw.remoteAddress, ctx.config);
        if (!admission.fits(found.user.id, address)) return ws.close(4429, "Too many open connections");
        const socket = adapt(ws.raw, found.user.id, found.id, address);
        sockets.set(ws.raw, socket);
        bySession.add(socket);
        socketOpened(ctx, socket);
      },
      async message(ws, frame) {
        const socket = sockets.get(ws.raw);
        if (socket && !closing.has(socket)) await dispatch(ctx, handlers, socket, frame);
      },
      close(ws) {
        const socket = sockets.get(ws.raw);
        if (!socket) return;
        sockets.delete(ws.raw);
        bySession.remove(socket);
        ctx.hub.disconnect(socket);
      },
    })
    .onStop(() => {
      clearInterval(sweep);
      stopListening();
    });
}
