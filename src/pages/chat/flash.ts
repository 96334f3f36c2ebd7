// The one-time success message after signing in. The redirect (or the auth script) sets a
// short-lived `flash` cookie naming what happened; the chat page turns it into the spec's text,
// passes it to the ChatApp island and clears the cookie.
import { FLASH_COOKIE, isFlashKind, type FlashKind } from "../../../islands/enhance/cookies.ts";
import { cookieValue } from "../../http/request.ts";
import type { T } from "../../i18n/catalogue.ts";

export const flashCookie = (kind: FlashKind, secure: boolean): string =>
  `${FLASH_COOKIE}=${kind}; Path=/; Max-Age=60; SameSite=Lax${secure ? "; Secure" : ""}`;

export const clearedFlashCookie = (secure: boolean): string => `${FLASH_COOKIE}=; Path=/; Max-Age=0; SameSite=Lax${secure ? "; Secure" : ""}`;

export function flashOf(request: Request): FlashKind | null {
  const value = cookieValue(request.headers.get("cookie"), FLASH_COOKIE);
  return isFlashKind(value) ? value : null;
}

export function flashText(kind: FlashKind, username: string, t: T): string {
  switch (kind) {
    case "login":
      return t("flash.login");
    case "register":
      return t("flash.register");
    case "guest":
      return t("flash.guest", { username });
  }
}
