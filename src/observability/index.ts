// GET /metrics in the Prometheus text format, for the operator's scraper (access.ts says who).
// A refusal does no work; an allowed scrape reads counters and a few map sizes, so it needs no
// rate limit of its own.
import { Elysia } from "elysia";
import type { AppContext } from "../context.ts";
import { forbidden, unauthorized } from "../http/errors.ts";
import { metricsAccess } from "./access.ts";
import { sampleEventLoopLag } from "./event-loop-lag.ts";
import { PROMETHEUS_CONTENT_TYPE } from "./registry.ts";

export function metricsRoutes(ctx: AppContext) {
  let stopSampling: (() => void) | undefined;
  return new Elysia()
    .onStart(() => {
      stopSampling ??= sampleEventLoopLag(ctx.metrics.eventLoopLag);
    })
    .onStop(() => {
      stopSampling?.();
      stopSampling = undefined;
    })
    .get(
      "/metrics",
      ({ request, server, set }) => {
        const access = metricsAccess(request, server?.requestIP(request)?.address, ctx.config);
        if (access === "token_required") {
          set.headers["www-authenticate"] = 'Bearer realm="metrics"';
          throw unauthorized("Send the metrics token as Authorization: Bearer <METRICS_TOKEN>");
        }
        if (access === "proxy_needs_token") throw forbidden("Behind a proxy (TRUST_PROXY), metrics need METRICS_TOKEN");
        if (access === "loopback_only") throw forbidden("Metrics are served only to this machine; set METRICS_TOKEN to scrape from elsewhere");
        return new Response(ctx.metrics.registry.render(), { headers: { "content-type": PROMETHEUS_CONTENT_TYPE, "cache-control": "no-store" } });
      },
      { detail: { summary: "Prometheus metrics for the operator (METRICS_TOKEN, or loopback only)", tags: ["Operations"] } },
    );
}
