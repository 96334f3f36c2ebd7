// POST /consent: the cookie banner's no-JavaScript path. Records the choice in the `consent`
// cookie for a year and sends the visitor back where they were.
import { Elysia } from "elysia";
import type { AppContext } from "../context.ts";
import { isSecure, originAllowed } from "../http/request.ts";
import { CONSENT_COOKIE, CONSENT_MAX_AGE, formatConsent, type Consent } from "../../islands/enhance/cookies.ts";
import { seeOther } from "./render.tsx";

function consentFrom(form: Record<string, unknown>): Consent | null {
  switch (form.choice) {
    case "accept":
      return { analytics: true, advertising: true };
    case "reject":
      return { analytics: false, advertising: false };
    case "custom":
      return { analytics: form.analytics === "1", advertising: form.advertising === "1" };
    default:
      return null;
  }
}

/** Only a path on this site: never "//other.site" or an absolute URL. */
export function localPath(value: unknown): string {
  return typeof value === "string" && /^\/(?![/\\])/.test(value) && value.length < 500 ? value : "/";
}

export const consentCookie = (consent: Consent, secure: boolean): string =>
  `${CONSENT_COOKIE}=${formatConsent(consent)}; Path=/; Max-Age=${CONSENT_MAX_AGE}; SameSite=Lax${secure ? "; Secure" : ""}`;

export function consentRoutes(ctx: AppContext) {
  return new Elysia().post("/consent", ({ body, request }) => {
    if (!originAllowed(request, ctx.config)) return new Response("This form was sent from another site.", { status: 403 });
    const form = (typeof body === "object" && body !== null ? body : {}) as Record<string, unknown>;
    const consent = consentFrom(form);
    if (!consent) return new Response("Choose Accept all, Reject non-essential or Save choices.", { status: 400 });
    return seeOther(localPath(form.return), [consentCookie(consent, isSecure(request, ctx.config))]);
  });
}
