// The sign-in routes (/api/auth/*, /api/guest/create) take JSON from the site's own pages only
// (API.md "General"). A browser cannot send JSON cross-site without asking first, and the Origin
// check covers what it can send, so no other site can sign a visitor in or out. The body itself
// is read, JSON only and capped, by the body gate (http/body/gate.ts) like every other route's.
import type { Config } from "../config.ts";
import { forbidden } from "../http/errors.ts";
import { originAllowed } from "../http/request.ts";

export function refuseForeignOrigin(request: Request, config: Config): void {
  if (!originAllowed(request, config)) throw forbidden("This request came from another site. Please sign in on this site's own page.");
}
