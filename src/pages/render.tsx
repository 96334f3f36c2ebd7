// Turns a page element into an HTML response. Pages are small and synchronous, so a plain
// renderToString is enough; islands are rendered beforehand (chat/island.tsx).
import type { ReactElement } from "react";
import { renderToString } from "react-dom/server";

export interface HtmlOptions {
  status?: number;
  /** Pages showing a user's data or what they typed must never be stored by a cache. */
  noStore?: boolean;
  cookies?: string[];
}

export function htmlResponse(page: ReactElement, options: HtmlOptions = {}): Response {
  const headers = new Headers({
    "content-type": "text/html; charset=utf-8",
    // Every page varies with cookies (session, consent banner): private, and revalidated.
    "cache-control": options.noStore ? "no-store" : "private, no-cache",
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "same-origin",
  });
  for (const cookie of options.cookies ?? []) headers.append("set-cookie", cookie);
  return new Response(`<!doctype html>${renderToString(page)}`, { status: options.status ?? 200, headers });
}

/** A 303 "see other": after a form post the browser GETs the target, so reloading never re-posts. */
export function seeOther(location: string, cookies: string[] = []): Response {
  const headers = new Headers({ location, "cache-control": "no-store" });
  for (const cookie of cookies) headers.append("set-cookie", cookie);
  return new Response(null, { status: 303, headers });
}
