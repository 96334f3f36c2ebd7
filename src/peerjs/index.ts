// PeerJS-compatible signalling on the app's own port (peer 1.0.2 cannot share Bun.serve): the
// HTTP routes, and the socket at /peerjs/peerjs that only a signed-in browser may open.
import { Elysia } from "elysia";
import { sessionFor, type Session } from "../auth/service.ts";
import type { AppContext } from "../context.ts";
import { clientAddress, originAllowed, sessionCookieOf } from "../http/request.ts";
import { connectParams } from "./connection.ts";
import { peerHttp } from "./http.ts";
import { DEFAULT_PEER_OPTIONS, type PeerOptions } from "./options.ts";
import type { PeerClient, PeerSocket } from "./registry.ts";
import { logFailure } from "../storage/unavailable.ts";

interface RawSocket {
  send(data: string): number;
  close(code?: number, reason?: string): void;
  readonly remoteAddress: string;
}

/** Same code and reason as /ws gives a socket whose session ended. */
const SIGNED_OUT = { code: 4401, reason: "Please sign in" } as const;

/**
 * Frames one peer socket may have waiting for their session checks (they are handled one at a
 * time, in order). Past the user's bucket of socket events frames are dropped before they wait,
 * so only a socket still opening (its user not yet known) can come near this.
 */
export const WAITING_FRAMES_MAX = 64;

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
  /** Null until the opening's session check has admitted it. */
  client: PeerClient | null;
  socket: PeerSocket;
  /** The session cookie it opened with, checked again on every frame. */
  sessionToken: string | null;
  userId: number | null;
  /**
   * Settles once the opening and every frame before the latest are handled. A session check is
   * asynchronous (a round trip on PostgreSQL), and frames must keep their order and never run
   * before the check that admits them, so each waits for the one before.
   */
  turn: Promise<void>;
  waiting: number;
  /** Closed by Bun, or by us: what still waits is dropped. */
  ended: boolean;
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
  // One process, or several over Redis: chosen in context.ts (engine.ts says what each does).
  const engine = ctx.peerEngine({ options, apart: (a, b) => ctx.blocks.between(a, b), relayOnly: ctx.config.iceTransportPolicy === "relay" });
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

  /** Runs `step` after what the connection already waits for; a failed check ends the socket. */
  function later(raw: RawSocket, connection: Connection, step: () => Promise<void>): void {
    if (connection.waiting >= WAITING_FRAMES_MAX) {
      connection.ended = true;
      return raw.close(1008, "Too many frames waiting");
    }
    connection.waiting++;
    connection.turn = connection.turn.then(async () => {
      connection.waiting--;
      if (connection.ended) return;
      try {
        await step();
      } catch (error) {
        // The session read, or (over Redis) the claim of the id: the client connects again.
        logFailure(ctx.log, "peer socket check failed", error);
        connection.ended = true;
        raw.close(1013, "Please connect again");
      }
    });
  }

  async function admit(raw: RawSocket, request: Request, connection: Connection, session: Session | null): Promise<void> {
    // Closed while its session was read: nothing to admit.
    if (connection.ended) return;
    if (!session) {
      connection.ended = true;
      return raw.close(SIGNED_OUT.code, SIGNED_OUT.reason);
    }
    const owner = { userId: session.user.id, sessionId: session.id, address: clientAddress(request, raw.remoteAddress, ctx.config) };
    const client = await engine.connect(connection.socket, connectParams(request.url), owner);
    if (!client) {
      connection.ended = true;
      return;
    }
    // Closed while the id was claimed in Redis: its close found no client, so let go of it here.
    if (connection.ended) return engine.closed(client, connection.socket);
    connection.client = client;
    connection.userId = session.user.id;
    const mine = byUser.get(session.user.id) ?? new Set<RawSocket>();
    byUser.set(session.user.id, mine.add(raw));
  }

  return new Elysia()
    .use(peerHttp(engine))
    .ws("/peerjs/peerjs", {
      // Runs twice per upgrade (STACK-NOTES): checks only, no side effects.
      async beforeHandle({ request, status }) {
        if (!originAllowed(request, ctx.config)) return status(403, { error: "This origin may not connect", code: "forbidden" });
        if (!(await signedIn(sessionCookieOf(request)))) return status(401, { error: "Please sign in", code: "unauthorized" });
      },
      open(ws) {
        const request = ws.data.request;
        const sessionToken = sessionCookieOf(request);
        const connection: Connection = { client: null, socket: adapt(ws.raw), sessionToken, userId: null, turn: Promise.resolve(), waiting: 0, ended: false };
        connections.set(ws.raw, connection);
        // Checked again: the session may have ended since the upgrade was allowed.
        later(ws.raw, connection, async () => admit(ws.raw, request, connection, await signedIn(sessionToken)));
      },
      message(ws, frame) {
        const connection = connections.get(ws.raw);
        if (!connection || connection.ended) return;
        // Every frame, even one peer would ignore, takes a token from the user's one bucket of
        // socket events (shared with /ws, API.md). Past it the frame is dropped unanswered:
        // peer's ERROR would make the browser's client destroy its peer, call and all. Checked
        // before the session so that a flood costs no database read either.
        if (connection.userId !== null && !ctx.limits.socketEvents.take(connection.userId)) return ctx.metrics.socketRefusals.peerjs.inc();
        later(ws.raw, connection, async () => {
          // A logout or ban ends the session; the next frame (a HEARTBEAT comes every 5 s) ends
          // the peer socket too, as /ws is ended at once.
          const signed = await signedIn(connection.sessionToken);
          if (connection.ended || !connection.client) return;
          if (!signed) {
            connection.ended = true;
            return ws.raw.close(SIGNED_OUT.code, SIGNED_OUT.reason);
          }
          engine.frame(connection.client, frame);
        });
      },
      close(ws) {
        const connection = connections.get(ws.raw);
        if (!connection) return;
        connection.ended = true;
        connections.delete(ws.raw);
        if (connection.userId === null || !connection.client) return;
        const mine = byUser.get(connection.userId);
        if (mine?.delete(ws.raw) && mine.size === 0) byUser.delete(connection.userId);
        engine.closed(connection.client, connection.socket);
      },
    })
    .onStop(() => {
      engine.stop();
      byUser.clear();
    });
}
