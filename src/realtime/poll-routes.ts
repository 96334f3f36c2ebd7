// The long-polling fallback of /ws (spec §7 "websocket preferred, polling fallback"; README
// "Realtime over long-polling"). The same frames, the same checks, in HTTP requests:
//   POST /ws/poll/open            → {sid}; admitted like a /ws upgrade (socket caps, connect rate)
//   GET  /ws/poll?sid=            → a JSON array of frames, held up to POLL_HOLD_MS when none wait
//   POST /ws/poll/send?sid=       ← a JSON array of client frames, each dispatched as a /ws frame
//   POST /ws/poll/close?sid=      → 204
// Every request carries the bearer token in Authorization (never in the URL, which is logged, and
// never the cookie alone) and passes the /ws origin check.
import { Elysia } from "elysia";
import { requestDevice } from "../auth/request-device.ts";
import { checkSession } from "../auth/sessions.ts";
import { sessionIdOf } from "../auth/tokens.ts";
import type { AppContext } from "../context.ts";
import { AppError } from "../http/errors.ts";
import { parseCountedJson, readJsonText } from "../http/body/json-text.ts";
import { bearerToken, clientAddress, originAllowed } from "../http/request.ts";
import type { Admission } from "./admission.ts";
import { MAX_SEND_BYTES, MAX_SEND_FRAMES, MAX_SENDS_WAITING, POLL_HOLD_MS } from "./poll-limits.ts";
import { localeOfRequest } from "../i18n/request.ts";
import { dispatch } from "./dispatch.ts";
import { setSocketLocale } from "./socket-locale.ts";
import { handlers } from "./handlers/index.ts";
import { socketOpened } from "./lifecycle.ts";
import type { PollEnd, PollSocket } from "./poll-socket.ts";
import type { PollSessions } from "./poll-sessions.ts";
import type { SocketGroups } from "./socket-groups.ts";

const refusal = (status: number, code: string, error: string) => new Response(JSON.stringify({ error, code }), { status, headers: { "content-type": "application/json" } });
const forbidden = () => refusal(403, "forbidden", "This origin may not connect");
const unauthorized = () => refusal(401, "unauthorized", "Please sign in");
/** An unknown sid, one of another session, or one expired: alike, so a sid's existence is not told. */
const gone = () => refusal(410, "gone", "This connection has ended. Please connect again.");

function pollAnswer(frames: string[], end: PollEnd | null): Response {
  const headers: Record<string, string> = { "content-type": "application/json", "cache-control": "no-store" };
  if (end) {
    headers["x-poll-end"] = String(end.code);
    headers["x-poll-end-reason"] = end.reason;
  }
  return new Response(`[${frames.join(",")}]`, { headers });
}

export interface PollDeps {
  admission: Admission;
  bySession: SocketGroups<string>;
  sessions: PollSessions;
}

export function pollRoutes(ctx: AppContext, { admission, bySession, sessions }: PollDeps) {
  const sendsWaiting = new WeakMap<PollSocket, Promise<void>>();
  const waitingCount = new WeakMap<PollSocket, number>();

  /** The session a request names, checked without the database: the token's signature names its auth session, whose revocation ends it by a push. */
  function sessionOf(request: Request, sid: unknown): PollSocket | Response {
    if (!originAllowed(request, ctx.config)) return forbidden();
    const authSession = sessionIdOf(ctx.config.secret, bearerToken(request.headers.get("authorization")));
    if (!authSession) return unauthorized();
    return sessions.find(sid, authSession) ?? gone();
  }

  async function dispatchAll(socket: PollSocket, frames: unknown[]): Promise<void> {
    for (const frame of frames) {
      // Like /ws: frames that arrive after the close was decided are dropped.
      if (socket.closing) return;
      await dispatch(ctx, handlers, socket, frame);
    }
  }

  return new Elysia()
    .post("/ws/poll/open", async ({ request, server }) => {
      if (!originAllowed(request, ctx.config)) return forbidden();
      // Answered once a write the check started (the touch, an expired row deleted) has committed.
      const checked = await checkSession(ctx.db, ctx.config, bearerToken(request.headers.get("authorization")));
      if (checked.written) await checked.written;
      const found = checked.session;
      if (!found) return unauthorized();
      const deviceId = await requestDevice(ctx.db, request, found);
      const address = clientAddress(request, server?.requestIP(request)?.address, ctx.config);
      let refused = admission.admit(found.user.id, address);
      if (!refused && admission.everywhere) refused = await admission.admitEverywhere(found.user.id);
      if (refused) {
        const response = refusal(429, "rate_limited", refused.message);
        response.headers.set("retry-after", String(refused.retryAfter));
        return response;
      }
      const socket = sessions.open({ userId: found.user.id, sessionId: found.id, address, deviceId });
      setSocketLocale(socket, localeOfRequest(request, found.user.locale));
      bySession.add(socket.sessionId, socket);
      socketOpened(ctx, socket);
      return { sid: socket.sid, holdMs: POLL_HOLD_MS };
    })
    .get("/ws/poll", ({ request, query, server }) => {
      const socket = sessionOf(request, query.sid);
      if (socket instanceof Response) return socket;
      // Bun ends a request idle for 10 s by default; a held poll waits longer on purpose.
      server?.timeout(request, Math.ceil(POLL_HOLD_MS / 1000) + 10);
      return new Promise<Response>((resolve) => {
        // An ended session stays until the idle sweep: its last answer may go to a poll that was
        // already gone (Bun does not always tell), and the next one must still hear why.
        const answer = (frames: string[], end: PollEnd | null) => resolve(pollAnswer(frames, end));
        request.signal.addEventListener("abort", () => socket.abandon(answer), { once: true });
        socket.poll(answer, POLL_HOLD_MS);
      });
    })
    .post("/ws/poll/send", async ({ request, query }) => {
      const socket = sessionOf(request, query.sid);
      if (socket instanceof Response) return socket;
      // Frames for a session that has ended are not dispatched; the client learns it here too.
      if (socket.closing) return gone();
      const waiting = waitingCount.get(socket) ?? 0;
      if (waiting >= MAX_SENDS_WAITING) return refusal(429, "rate_limited", "Wait for the previous send to finish.");
      // Counted from before the body is read, so concurrent sends cannot all be reading at once.
      waitingCount.set(socket, waiting + 1);
      try {
        // Read only now, after the token: the gate leaves this body to the route (rules.ts "own").
        const frames = parseCountedJson(await readJsonText(request, MAX_SEND_BYTES));
        if (!Array.isArray(frames) || frames.length > MAX_SEND_FRAMES) {
          throw new AppError(400, "validation", `Send a JSON array of at most ${MAX_SEND_FRAMES} frames`);
        }
        // In order across sends, as frames on one /ws socket are.
        const done = (sendsWaiting.get(socket) ?? Promise.resolve()).then(() => dispatchAll(socket, frames));
        // A send that failed must not stop the ones after it.
        sendsWaiting.set(socket, done.catch(() => undefined));
        await done;
      } finally {
        waitingCount.set(socket, (waitingCount.get(socket) ?? 1) - 1);
      }
      return new Response(null, { status: 204 });
    })
    .post("/ws/poll/close", ({ request, query }) => {
      const socket = sessionOf(request, query.sid);
      if (socket instanceof Response) return socket;
      // A session that moved to its WebSocket lives on there.
      if (socket.polling) socket.close(1000, "Client closed");
      return new Response(null, { status: 204 });
    })
    .onStop(() => sessions.stop());
}
