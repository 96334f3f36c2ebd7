// The language of one request, in the contract's order: `lang` cookie, account locale,
// Accept-Language, English.
import { cookieValue } from "../http/request.ts";
import { LANG_COOKIE, LANG_COOKIE_MAX_AGE, resolveLocale, type Locale } from "./locales.ts";

export function localeOfRequest(request: Request, accountLocale?: string | null): Locale {
  return resolveLocale({
    cookie: cookieValue(request.headers.get("cookie"), LANG_COOKIE),
    account: accountLocale ?? null,
    acceptLanguage: request.headers.get("accept-language"),
  });
}

/** Not httpOnly: the islands read nothing from it, but nothing secret is in it either. */
export const langCookie = (locale: Locale, secure: boolean): string =>
  `${LANG_COOKIE}=${locale}; Path=/; Max-Age=${LANG_COOKIE_MAX_AGE}; SameSite=Lax${secure ? "; Secure" : ""}`;
