// Choosing the interface language: `PUT /api/users/locale {locale}` saves it on the account and
// sets the `lang` cookie (Settings); `GET /lang?to=es&back=/path` sets only the cookie and goes
// back (the footer's plain form, which works without JavaScript).
import { Type as t } from "@sinclair/typebox";
import { Elysia } from "elysia";
import { answers } from "../api-docs/answers.ts";
import { operation } from "../api-docs/operation.ts";
import { authGuard } from "../auth/guard.ts";
import type { AppContext } from "../context.ts";
import { clientAddress, isSecure } from "../http/request.ts";
import { Budget, HOUR_MS } from "../http/rate-limit.ts";
import { validate } from "../http/validate.ts";
import { seeOther } from "../pages/render.tsx";
import { setLocale, toOwnUser } from "../users/service.ts";
import { LOCALES, isLocale } from "./locales.ts";
import { langCookie } from "./request.ts";

/** A choice made by hand; the budgets only stop a script writing the row or the cookie in a loop. */
export const LOCALE_CHANGES_PER_HOUR = 60;
export const LANG_SWITCHES_PER_HOUR = 120;

export const localeBody = t.Object({
  locale: t.Union(LOCALES.map((l) => t.Literal(l)), { error: `Choose one of: ${LOCALES.join(", ")}` }),
});

/** Only a path of this site (never "//host" or a scheme), so the switcher cannot send anyone elsewhere. */
export function safeBack(value: unknown): string {
  if (typeof value !== "string" || !value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\") || value.length > 512) return "/";
  return /[\u0000-\u001f\u007f]/.test(value) ? "/" : value;
}

export function localeRoutes(ctx: AppContext) {
  const changes = new Budget(LOCALE_CHANGES_PER_HOUR, HOUR_MS);
  const switches = new Budget(LANG_SWITCHES_PER_HOUR, HOUR_MS);
  return new Elysia()
    .get("/lang", ({ query, request, server }) => {
      switches.take(clientAddress(request, server?.requestIP(request)?.address, ctx.config));
      const back = safeBack(query.back);
      // An unknown language changes nothing: back to where the visitor was.
      if (!isLocale(query.to)) return seeOther(back);
      return seeOther(back, [langCookie(query.to, isSecure(request, ctx.config))]);
    })
    .use(authGuard(ctx))
    .put("/api/users/locale", async ({ body, user, request, set }) => {
      const input = validate(localeBody, body);
      changes.take(user.id);
      set.headers["set-cookie"] = langCookie(input.locale, isSecure(request, ctx.config));
      return { user: toOwnUser(await setLocale(ctx.db, user.id, input.locale)) };
    }, {
      detail: operation({
        tag: "Users",
        summary: "Choose my interface language",
        description: `One of ${LOCALES.join(", ")}. Saved on the account and set as the \`lang\` cookie, which pages and errors follow.`,
        json: localeBody,
        ok: { description: "The own record with locale", schema: answers.ownUser },
        errors: [400, 429],
      }),
    });
}
