// The plain HTTP side of peer under /peerjs: the info document, a fresh id, and the peer list
// (refused: discovery stays off so nobody can enumerate who is reachable). CORS as peer sends it
// (the `cors` package with `origin: true`): the caller's origin reflected, no credentials.
import { Elysia } from "elysia";
import { SERVER_INFO } from "./protocol.ts";
import type { PeerId } from "./protocol.ts";

/** Reflecting any origin is safe here: nothing is private and credentials are not allowed. */
function corsHeaders(request: Request, contentType?: string): Headers {
  const headers = new Headers({ vary: "Origin" });
  const origin = request.headers.get("origin");
  if (origin) headers.set("access-control-allow-origin", origin);
  if (contentType) headers.set("content-type", contentType);
  return headers;
}

function preflight({ request }: { request: Request }): Response {
  const headers = corsHeaders(request);
  headers.set("access-control-allow-methods", "GET,HEAD,PUT,PATCH,POST,DELETE");
  headers.append("vary", "Access-Control-Request-Headers");
  const asked = request.headers.get("access-control-request-headers");
  if (asked) headers.set("access-control-allow-headers", asked);
  headers.set("content-length", "0");
  return new Response(null, { status: 204, headers });
}

export function peerHttp(registry: { freshId(): PeerId }) {
  return new Elysia()
    .get("/peerjs", ({ request }) => new Response(JSON.stringify(SERVER_INFO), { headers: corsHeaders(request, "application/json; charset=utf-8") }))
    // Any key, as peer's `/:key/id` route. Peer labels the id text/html; it is plain text.
    .get("/peerjs/:key/id", ({ request }) => new Response(registry.freshId(), { headers: corsHeaders(request, "text/plain; charset=utf-8") }))
    .get("/peerjs/:key/peers", ({ request }) => {
      const body = JSON.stringify({ error: "Listing peers is turned off", code: "unauthorized" });
      return new Response(body, { status: 401, headers: corsHeaders(request, "application/json; charset=utf-8") });
    })
    .options("/peerjs", preflight)
    .options("/peerjs/*", preflight);
}
