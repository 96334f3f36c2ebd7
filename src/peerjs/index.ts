// PeerJS-compatible signalling on the app's own port (peer 1.0.2 cannot share Bun.serve): the
// HTTP routes, and the socket at /peerjs/peerjs that only a signed-in browser may open.
import { Elysia } from "elysia";
import { sessionFor } from "../auth/service.ts";
import type { AppContext } from "../context.ts";
import { clientAddress, originAllowed, sessionCookieOf } from "../http/request.ts";
import { connectParams, connectPeer, peerClosed, peerFrame } from "./connection.ts";
import { peerHttp } from "./http.ts";
import { DEFAULT_PEER_OPTIONS, type PeerOptions } from "./options.ts";
import { type PeerClient, PeerRegistry, type PeerSocket } from "./registry.ts";
import { startSweeps } from "./sweeps.ts";

interface RawSocket {
  send(data: string): number;
  close(code?: number, reason?: string): void;
  readonly remoteAddress: string;
}

/** Same code and reason as /ws gives a socket whose session ended. */
const SIGNED_OUT = { code: 4401, reason: "Please sign in" } as const;

function adapt(raw: RawSocket): PeerSocket {
  return {
    // Bun answers 0 when it dropped the frame (the socket is closing); -1 means queued, still fine.
    send: (text) => raw.send(text) !== 0,
    // Peer (ws) closes with no status code; Bun sends an empty close frame when given 1005,
    // so the browser sees exactly what it would see from peer.
    close: () => raw.close(1005),
  };
}

interface Connection {
  client: PeerClient;
  socket: PeerSocket;
  /** The session cookie it opened with, checked again on every frame. */
  sessionToken: string | null;
  userId: number;
}

/**
 * PEER_CAP per session from the configuration; the per-account and per-address caps (the same
 * figures as /ws's SOCKET_CAP defaults, since a tab that calls holds one of each) never below it.
 */
function capsFrom(ctx: AppContext): Pick<PeerOptions, "maxPeersPerSession" | "maxPeersPerUser" | "maxPeersPerAddress"> {
  const perSession = ctx.config.peerCap;
  const { maxPeersPerUser, maxPeersPerAddress } = DEFAULT_PEER_OPTIONS;
  return { maxPeersPerSession: perSession, maxPeersPerUser: Math.max(perSession, maxPeersPerUser), maxPeersPerAddress: Math.max(perSession, maxPeersPerAddress) };
}

export function peerRoutes(ctx: AppContext, overrides: Partial<PeerOptions> = {}) {
  const options: PeerOptions = { ...DEFAULT_PEER_OPTIONS, ...capsFrom(ctx), ...overrides };
  const registry = new PeerRegistry(options, (a, b) => ctx.blocks.between(a, b));
  registry.relayOnly = ctx.config.iceTransportPolicy === "relay";
  const stopSweeps = startSweeps(registry, options);
  const connections = new WeakMap<object, Connection>();
  // Each user's open peer sockets, so that a ban or "end sessions" closes them at once (4403 /
  // 4401), not at the next HEARTBEAT. Entries leave in `close`.
  const byUser = new Map<number, Set<RawSocket>>();
  ctx.hub.onExpel((userId, code, reason) => {
    for (const raw of byUser.get(userId) ?? []) raw.close(code, reason);
  });
  // The browser sends the httpOnly session cookie with the upgrade; the client library has no
  // way to add a token to the URL.
  const signedIn = (sessionToken: string | null) => sessionFor(ctx.db, ctx.config, sessionToken);

  return new Elysia()
    .use(peerHttp(registry))
    .ws("/peerjs/peerjs", {
      // Runs twice per upgrade (STACK-NOTES): checks only, no side effects.
      beforeHandle({ request, status }) {
        if (!originAllowed(request, ctx.config)) return status(403, { error: "This origin may not connect", code: "forbidden" });
        if (!signedIn(sessionCookieOf(request))) return status(401, { error: "Please sign in", code: "unauthorized" });
      },
      open(ws) {
        const request = ws.data.request;
        const sessionToken = sessionCookieOf(request);
        const session = signedIn(sessionToken);
        if (!session) return ws.raw.close(SIGNED_OUT.code, SIGNED_OUT.reason);
        const socket = adapt(ws.raw);
        const owner = { userId: session.user.id, sessionId: session.id, address: clientAddress(request, ws.raw.remoteAddress, ctx.config) };
        const client = connectPeer(registry, options, socket, connectParams(request.url), owner);
        if (!client) return;
        connections.set(ws.raw, { client, socket, sessionToken, userId: session.user.id });
        const mine = byUser.get(session.user.id) ?? new Set<RawSocket>();
        byUser.set(session.user.id, mine.add(ws.raw));
      },
      message(ws, frame) {
        const connection = connections.get(ws.raw);
        if (!connection) return;
        // Every frame, even one peer would ignore, takes a token from the user's one bucket of
        // socket events (shared with /ws, API.md). Past it the frame is dropped unanswered:
        // peer's ERROR would make the browser's client destroy its peer, call and all. Checked
        // before the session so that a flood costs no database read either.
        if (!ctx.limits.socketEvents.take(connection.userId)) return ctx.metrics.socketRefusals.peerjs.inc();
        // A logout or ban ends the session; the next frame (a HEARTBEAT comes every 5 s) ends
        // the peer socket too, as /ws is ended at once.
        if (!signedIn(connection.sessionToken)) return ws.raw.close(SIGNED_OUT.code, SIGNED_OUT.reason);
        peerFrame(registry, connection.client, frame);
      },
      close(ws) {
        const connection = connections.get(ws.raw);
        if (!connection) return;
        connections.delete(ws.raw);
        const mine = byUser.get(connection.userId);
        if (mine?.delete(ws.raw) && mine.size === 0) byUser.delete(connection.userId);
        peerClosed(registry, connection.client, connection.socket);
      },
    })
    .onStop(() => {
      stopSweeps();
      registry.clear();
      byUser.clear();
    });
}
