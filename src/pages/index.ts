// The server-rendered side of the site: pages, their form posts and the client build's files.
import { Elysia } from "elysia";
import type { AppContext } from "../context.ts";
import { assetRoutes } from "./assets/routes.ts";
import { pwaRoutes } from "./assets/pwa.tsx";
import { authFormRoutes } from "./auth-forms.tsx";
import { appealRoutes } from "./appeal/routes.tsx";
import { consentRoutes } from "./consent-route.ts";
import { modRoutes } from "./mod/index.tsx";
import { rememberPageConfig } from "./not-found.tsx";
import { pageGetRoutes } from "./routes.tsx";

export function pageRoutes(ctx: AppContext) {
  return new Elysia()
    .onRequest(({ request }) => rememberPageConfig(request, ctx.config))
    .use(assetRoutes())
    .use(pwaRoutes(ctx.config))
    .use(pageGetRoutes(ctx))
    .use(authFormRoutes(ctx))
    .use(consentRoutes(ctx))
    .use(modRoutes(ctx))
    .use(appealRoutes(ctx));
}
