// The one-line note after a console action ("Banned Eve for 7 days"). It rides a short-lived
// cookie scoped to /mod rather than the URL, so no link can make the console claim something.
import { cookieValue } from "../../http/request.ts";

const COOKIE = "mod_flash";
const MAX_LENGTH = 300;

export const modFlashCookie = (text: string, secure: boolean): string =>
  `${COOKIE}=${encodeURIComponent(text.slice(0, MAX_LENGTH))}; Path=/mod; Max-Age=60; HttpOnly; SameSite=Strict${secure ? "; Secure" : ""}`;

export const clearedModFlash = (secure: boolean): string => `${COOKIE}=; Path=/mod; Max-Age=0; HttpOnly; SameSite=Strict${secure ? "; Secure" : ""}`;

export function modFlashOf(request: Request): string | null {
  const value = cookieValue(request.headers.get("cookie"), COOKIE);
  return value ? value.slice(0, MAX_LENGTH) : null;
}
