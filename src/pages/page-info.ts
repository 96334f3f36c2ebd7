// What every page needs to know about the request besides its own data: the site's settings,
// the path (the consent form returns there) and the visitor's cookie choice.
import type { Config } from "../config.ts";
import { cookieValue } from "../http/request.ts";
import { CONSENT_COOKIE, parseConsent, type Consent } from "../../islands/enhance/cookies.ts";

export interface PageInfo {
  config: Config;
  path: string;
  consent: Consent | null;
}

/** `path` overrides the request's own, e.g. a form post answered with the page at "/". */
export function pageInfo(config: Config, request: Request, path = new URL(request.url).pathname): PageInfo {
  return {
    config,
    path,
    consent: parseConsent(cookieValue(request.headers.get("cookie"), CONSENT_COOKIE)),
  };
}

/** The product's name as people see it in titles, the logo and the legal texts. */
export const SITE_NAME = "Web Chat";
