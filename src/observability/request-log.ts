// Gives every HTTP request its id (the `x-request-id` header) and writes one line when it is
// answered: method, path (see log-path.ts), status and milliseconds, never headers or bodies.
// Only failures (5xx) and slow answers reach the default level; the rest is debug, because one
// chat screen makes many small /api calls and the counts belong in /metrics, not in the log.
import { Elysia } from "elysia";
import type { AppContext } from "../context.ts";
import { pathForLog } from "./log-path.ts";
import { REQUEST_ID_HEADER, requestIdFor } from "./request-id.ts";

/** Same threshold as the client's performance warnings (spec, section 9). */
export const SLOW_REQUEST_MS = 1000;

interface InFlight {
  id: string;
  startedAt: number;
  /** Set when onError built the answer: Elysia's afterResponse does not see that Response. */
  status?: number;
}

const inFlight = new WeakMap<Request, InFlight>();

export const requestIdOf = (request: Request): string | undefined => inFlight.get(request)?.id;

/** Notes the status of an answer made in onError, so the request's line tells the truth. */
export function answered(request: Request, response: Response): Response {
  const entry = inFlight.get(request);
  if (entry) entry.status = response.status;
  return response;
}

function statusOf(entry: InFlight, responseValue: unknown, setStatus: unknown): number {
  if (entry.status !== undefined) return entry.status;
  if (responseValue instanceof Response) return responseValue.status;
  return typeof setStatus === "number" ? setStatus : 200;
}

export function requestLogging(ctx: AppContext) {
  return new Elysia({ name: "request-logging" })
    .onRequest(({ request, set }) => {
      const id = requestIdFor(request.headers.get(REQUEST_ID_HEADER));
      inFlight.set(request, { id, startedAt: performance.now() });
      set.headers[REQUEST_ID_HEADER] = id;
    })
    .onAfterResponse({ as: "global" }, (context) => {
      const { request, set, route } = context;
      const entry = inFlight.get(request);
      if (!entry) return;
      const status = statusOf(entry, "responseValue" in context ? context.responseValue : undefined, set.status);
      const ms = performance.now() - entry.startedAt;
      // Every refusal by an HTTP limiter ends here as a 429, whichever limiter made it.
      if (status === 429) ctx.metrics.refusals.inc({ scope: "http", limiter: `${request.method} ${route || "unmatched"}` });
      const level = status >= 500 || ms >= SLOW_REQUEST_MS ? "warn" : "debug";
      if (!ctx.log.enabled(level)) return;
      ctx.log[level]("request", { request_id: entry.id, method: request.method, path: pathForLog(request.url), status, ms: Math.round(ms * 10) / 10 });
    });
}
