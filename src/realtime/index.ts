// The /ws endpoint: authenticates the upgrade, wraps Bun's socket for the hub, feeds frames to
// the dispatcher and closes sockets that fall silent.
import { Elysia } from "elysia";
import { randomUUID } from "node:crypto";
import { sessionFor } from "../auth/service.ts";
import type { AppContext } from "../context.ts";
import { originAllowed } from "../http/request.ts";
import { dispatch } from "./dispatch.ts";
import { handlers } from "./handlers/index.ts";
import { socketOpened, wireLifecycle } from "./lifecycle.ts";
import type { ClientSocket } from "./socket.ts";

/** Frames larger than this close the socket with 1009 (Bun enforces it). */
export const MAX_FRAME_BYTES = 64 * 1024;

interface RawSocket {
  send(data: string): unknown;
  close(code?: number, reason?: string): void;
}

function adapt(raw: RawSocket, userId: number, sessionId: string): ClientSocket {
  return {
    id: randomUUID(),
    userId,
    sessionId,
    present: true,
    lastHeardAt: Date.now(),
    sendText: (text) => {
      raw.send(text);
    },
    close: (code, reason) => raw.close(code, reason),
  };
}

export function realtimeRoutes(ctx: AppContext) {
  wireLifecycle(ctx);
  const sockets = new WeakMap<object, ClientSocket>();

  // Silent sockets are closed; the client pings every 15 s, so 45 s means it is gone.
  const sweep = setInterval(() => {
    const cutoff = Date.now() - ctx.config.wsIdleMs;
    for (const socket of ctx.hub.allSockets()) if (socket.lastHeardAt < cutoff) socket.close(4408, "Idle timeout");
  }, Math.min(5000, ctx.config.wsIdleMs / 3));
  sweep.unref?.();

  const session = (token: unknown) => sessionFor(ctx.db, ctx.config, token);

  return new Elysia()
    .ws("/ws", {
      // Runs twice per upgrade (STACK-NOTES): checks only, no side effects.
      beforeHandle({ request, query, status }) {
        if (!originAllowed(request, ctx.config)) return status(403, { error: "This origin may not connect", code: "forbidden" });
        if (!session(query.token)) return status(401, { error: "Please sign in", code: "unauthorized" });
      },
      open(ws) {
        const found = session(ws.data.query.token);
        if (!found) return ws.close(4401, "Please sign in");
        const socket = adapt(ws.raw, found.user.id, found.id);
        sockets.set(ws.raw, socket);
        socketOpened(ctx, socket);
      },
      async message(ws, frame) {
        const socket = sockets.get(ws.raw);
        if (socket) await dispatch(ctx, handlers, socket, frame);
      },
      close(ws) {
        const socket = sockets.get(ws.raw);
        if (!socket) return;
        sockets.delete(ws.raw);
        ctx.hub.disconnect(socket);
      },
    })
    .onStop(() => clearInterval(sweep));
}
