// The one place where anything thrown becomes an answer: the contract's `{error, code, fields?}`
// with the right status. Nothing a client sends may produce a 500 with details.
import { notFoundPage } from "../pages/not-found.tsx";
import type { Logger } from "../observability/log.ts";
import { errorFields } from "../observability/log.ts";
import { pathForLog } from "../observability/log-path.ts";
import { requestIdOf } from "../observability/request-log.ts";
import { gateError } from "./body/gate.ts";
import { AppError, unavailable } from "./errors.ts";
import { outageCode } from "../storage/unavailable.ts";
import { nulRefusalFor } from "./nul.ts";
import { translateErrorBody } from "../i18n/errors.ts";
import { localeOfRequest } from "../i18n/request.ts";

const plainJson = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", "x-content-type-options": "nosniff", ...headers },
  });

/** `log` is where a 500 is written with its request id (a caller mapping only AppErrors may omit it). */
export function errorResponse(code: string | number | undefined, thrown: unknown, request: Request, log?: Logger): Response {
  // The body gate's refusals (401, 413, 415, 400) reach here wrapped in Elysia's ParseError.
  // A database that cannot be reached is 503 `unavailable`, not a 500 (storage/unavailable.ts).
  // PostgreSQL's refusal of a NUL that got past the edge's checks is the same 400 they give (http/nul.ts).
  const outage = outageCode(thrown);
  const error = gateError(thrown) ?? (outage ? unavailable() : undefined) ?? nulRefusalFor(thrown) ?? thrown;
  // Which outage it was (a refused or timed-out connection, an administrator's shutdown): the
  // request's own log line says only 503.
  if (outage) log?.warn("database unavailable", { code: outage, request_id: requestIdOf(request) });
  // `error` and `fields` in the visitor's language (API.md "Interests and languages"); `code` as it is.
  const locale = localeOfRequest(request);
  const json = (status: number, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
    plainJson(status, translateErrorBody(body, locale), headers);
  if (error instanceof AppError) {
    const retry = error.extra.retryAfter;
    const headers: Record<string, string> = typeof retry === "number" ? { "retry-after": String(retry) } : {};
    const { retryAfter: _, ...body } = error.toJSON();
    return json(error.status, body, headers);
  }
  switch (code) {
    case "PARSE":
      return json(400, { error: "The request body could not be read (malformed JSON or form data)", code: "validation", fields: {} });
    case "VALIDATION":
      return json(400, { error: "Please check the request", code: "validation", fields: {} });
    case "NOT_FOUND":
      // A person following a dead link gets the HTML 404 page; API clients keep the JSON shape.
      return notFoundPage(request) ?? json(404, { error: `Nothing at ${new URL(request.url).pathname}`, code: "not_found" });
    case "INVALID_COOKIE_SIGNATURE":
    case "INVALID_FILE_TYPE":
      return json(400, { error: "The request could not be read", code: "validation", fields: {} });
  }
  if (error instanceof Error && /body.*(too large|exceed)/i.test(error.message)) {
    return json(413, { error: "The request is too large", code: "too_large" });
  }
  log?.error("request failed", { request_id: requestIdOf(request), method: request.method, path: pathForLog(request.url), ...errorFields(error) });
  return json(500, { error: "Something went wrong on our side. Please try again.", code: "internal" });
}
