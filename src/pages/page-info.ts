// What every page needs to know about the request besides its own data: the site's settings,
// the path (the consent form returns there) and the visitor's cookie choice.
import type { Config } from "../config.ts";
import { cookieValue } from "../http/request.ts";
import { CONSENT_COOKIE, parseConsent, type Consent } from "../../islands/enhance/cookies.ts";
import { translator, type T } from "../i18n/catalogue.ts";
import type { Locale } from "../i18n/locales.ts";
import { localeOfRequest } from "../i18n/request.ts";

export interface PageInfo {
  config: Config;
  path: string;
  consent: Consent | null;
  /** The visitor's language (src/i18n/request.ts) and its translator. */
  locale: Locale;
  t: T;
}

/**
 * `path` overrides the request's own, e.g. a form post answered with the page at "/";
 * `accountLocale` is the signed-in visitor's saved language, when the caller knows it.
 */
export function pageInfo(config: Config, request: Request, path = new URL(request.url).pathname, accountLocale?: string | null): PageInfo {
  const locale = localeOfRequest(request, accountLocale);
  return {
    config,
    path,
    consent: parseConsent(cookieValue(request.headers.get("cookie"), CONSENT_COOKIE)),
    locale,
    t: translator(locale),
  };
}

/** The product's name as people see it in titles, the logo and the legal texts. */
export const SITE_NAME = "Web Chat";
