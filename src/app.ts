// Builds the Elysia app from the feature modules. server.ts listens with it; tests build it too.
import { Elysia } from "elysia";
import { apiDocs, healthDetail } from "./api-docs/index.ts";
import { authRoutes } from "./auth/index.ts";
import { blockRoutes } from "./blocks/index.ts";
import type { AppContext } from "./context.ts";
import { geoRoutes } from "./geo/index.ts";
import { iceRoutes } from "./ice/index.ts";
import { BodyGate } from "./http/body/gate.ts";
import { compressHtml } from "./http/compress.ts";
import { errorResponse } from "./http/error-response.ts";
import { messageRoutes } from "./messages/index.ts";
import { peerRoutes } from "./peerjs/index.ts";
import { privacyRoutes } from "./privacy/index.ts";
import { pushRoutes } from "./push/index.ts";
import { localeRoutes } from "./i18n/routes.ts";
import { BACKPRESSURE_LIMIT_BYTES, MAX_FRAME_BYTES, realtimeRoutes } from "./realtime/index.ts";
import { uploadRoutes } from "./uploads/index.ts";
import { userRoutes } from "./users/index.ts";
import { pageRoutes } from "./pages/index.ts";
import { withPagePolicies } from "./pages/layout/security.ts";
import { reportRoutes } from "./reports/index.ts";
import { moderationRoutes } from "./moderation/index.ts";
import { metricsRoutes } from "./observability/index.ts";
import { answered, requestLogging } from "./observability/request-log.ts";

export function buildApp(ctx: AppContext) {
  const bodies = new BodyGate(ctx);
  const app = new Elysia({
    // One Bun server carries /ws and /peerjs: frames past 64 KB close with 1009, and a socket
    // that stops reading is closed once 256 KB wait for it.
    websocket: { maxPayloadLength: MAX_FRAME_BYTES, idleTimeout: 120, backpressureLimit: BACKPRESSURE_LIMIT_BYTES, closeOnBackpressureLimit: true },
  })
    .use(requestLogging(ctx))
    .onError(({ code, error, request }) => compressHtml(answered(request, withPagePolicies(errorResponse(code, error, request, ctx.log), ctx.config, request)), request))
    // Every route's body goes through the gate (http/body/): the token first, then its own limit.
    .onParse(({ request, route }) => bodies.parse(request, route))
    .onAfterHandle(({ set, request, responseValue }) => {
      set.headers["x-content-type-options"] = "nosniff";
      // Only pages are compressed here; API answers are small JSON and the build is precompressed.
      if (responseValue instanceof Response && responseValue.headers.get("content-type")?.startsWith("text/html")) {
        return compressHtml(withPagePolicies(responseValue, ctx.config, request), request);
      }
    })
    .get("/healthz", () => ({ ok: true }), { detail: healthDetail })
    .use(metricsRoutes(ctx))
    .use(authRoutes(ctx))
    .use(userRoutes(ctx))
    .use(privacyRoutes(ctx))
    .use(localeRoutes(ctx))
    .use(blockRoutes(ctx))
    .use(pushRoutes(ctx))
    .use(geoRoutes(ctx))
    .use(iceRoutes(ctx))
    .use(messageRoutes(ctx))
    .use(uploadRoutes(ctx))
    .use(reportRoutes(ctx))
    .use(moderationRoutes(ctx))
    .use(apiDocs)
    .use(realtimeRoutes(ctx))
    .use(peerRoutes(ctx))
    .use(pageRoutes(ctx));
  bodies.seal(app.routes);
  return app;
}

export type App = ReturnType<typeof buildApp>;
