// GET pages: "/" decided on the server from the session cookie (chat screen or landing page, so
// the wrong one never flashes), the legal pages, and /login and /register sending people to "/".
import { Elysia } from "elysia";
import type { ReactElement } from "react";
import { sessionFor } from "../auth/service.ts";
import type { AppContext } from "../context.ts";
import { clearedSessionCookie, isSecure, sessionCookieOf } from "../http/request.ts";
import { toOwnUser } from "../users/service.ts";
import { ChatShellPage } from "./chat/ChatShellPage.tsx";
import { clearedFlashCookie, flashOf, flashText } from "./chat/flash.ts";
import { renderIsland } from "./chat/islands.ts";
import { islandStrings } from "../i18n/catalogue.ts";
import { emptyForm } from "./landing/form-state.ts";
import { LandingPage } from "./landing/LandingPage.tsx";
import { CompliancePage } from "./legal/Compliance.tsx";
import { CookiesPage } from "./legal/Cookies.tsx";
import { PrivacyPage } from "./legal/Privacy.tsx";
import { TermsPage } from "./legal/Terms.tsx";
import { pageInfo, type PageInfo } from "./page-info.ts";
import { htmlResponse, seeOther } from "./render.tsx";

const legalPages: Record<string, (props: { page: PageInfo }) => ReactElement> = {
  "/privacy": PrivacyPage,
  "/terms": TermsPage,
  "/cookies": CookiesPage,
  "/compliance": CompliancePage,
};

async function home(ctx: AppContext, request: Request): Promise<Response> {
  const secure = isSecure(request, ctx.config);
  const token = sessionCookieOf(request);
  const session = await sessionFor(ctx.db, ctx.config, token);
  const page = pageInfo(ctx.config, request, undefined, session?.user.locale);
  if (!session || !token) {
    // A revoked or forged cookie is dropped, so later requests do not look it up again.
    return htmlResponse(<LandingPage page={page} form={emptyForm()} />, { cookies: token ? [clearedSessionCookie(secure)] : [] });
  }
  const flash = flashOf(request);
  const chat = await renderIsland("ChatApp", {
    token,
    user: toOwnUser(session.user),
    flash: flash ? flashText(flash, session.user.username, page.t) : null,
    i18n: { locale: page.locale, strings: islandStrings(page.locale) },
    ice: { iceServers: ctx.config.iceServers, iceTransportPolicy: ctx.config.iceTransportPolicy },
  }, ctx.log);
  return htmlResponse(<ChatShellPage page={page} chat={chat} />, { noStore: true, cookies: flash ? [clearedFlashCookie(secure)] : [] });
}

export function pageGetRoutes(ctx: AppContext) {
  const app = new Elysia()
    .get("/", ({ request }) => home(ctx, request))
    .get("/login", () => seeOther("/"))
    .get("/register", () => seeOther("/"));
  for (const [path, Page] of Object.entries(legalPages)) {
    app.get(path, async ({ request }) => {
      const session = await sessionFor(ctx.db, ctx.config, sessionCookieOf(request));
      return htmlResponse(<Page page={pageInfo(ctx.config, request, undefined, session?.user.locale)} />);
    });
  }
  return app;
}
