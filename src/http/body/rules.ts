// What each route may receive as a body, and who reads it. Every route that can carry a body
// (any method but GET and HEAD) must be listed: the app refuses to start otherwise (gate.ts), so
// a new route cannot quietly fall back to Elysia's parser, which reads anything up to the
// server-wide cap (101 MB) before any check. README's limits table shows these figures.
// A route's own `parse: "none"` option (uploads, reports, the console) no longer decides
// anything: the gate's hook runs first and always answers, so Elysia's parsers never run.
import { MAX_REQUEST_BYTES } from "../../uploads/limits.ts";
import { MAX_REPORT_BYTES } from "../../reports/request.ts";
import { MAX_FORM_BYTES } from "../../pages/mod/form.ts";
import { MAX_SEND_BYTES } from "../../realtime/poll-limits.ts";

const KB = 1024;

export type BodyRule =
  /** JSON only (415 otherwise), read and parsed here; `optional`: no body reads as {}. */
  | { kind: "json"; max: number; optional?: boolean }
  /** A no-JavaScript form post: urlencoded, or JSON; read and parsed here. */
  | { kind: "form"; max: number }
  /** The route streams the body itself, counting against `max`; the gate checks the token and the declared length first. */
  | { kind: "stream"; max: number }
  /**
   * The route checks who asks and reads its small form itself, capped at `max` while reading:
   * the moderation console must answer 404 to anyone else before saying anything about a body.
   */
  | { kind: "own"; max: number }
  /** Nothing is read; a declared body past `max` is refused (a client may send `{}`). */
  | { kind: "none"; max: number };

const json = (max: number, optional = false): BodyRule => ({ kind: "json", max, optional });
const none: BodyRule = { kind: "none", max: 1 * KB };

export const BODY_RULES: Readonly<Record<string, BodyRule>> = {
  "POST /api/auth/register": json(16 * KB),
  "POST /api/auth/login": json(4 * KB),
  "POST /api/guest/create": json(1 * KB),
  "POST /api/auth/logout": json(1 * KB, true),
  "PUT /api/users/profile": json(8 * KB),
  "PUT /api/users/nudity-blur": json(1 * KB),
  "PUT /api/users/privacy": json(1 * KB),
  "PUT /api/users/locale": json(1 * KB),
  "POST /api/blocks": json(1 * KB),
  "POST /api/push/subscriptions": json(4 * KB),
  "DELETE /api/push/subscriptions": json(2 * KB),
  "POST /api/users/confirm-adult": none,
  "DELETE /api/blocks/:userId": none,
  "PUT /api/messages/mark-read/:senderId": none,
  "DELETE /api/users/avatar": none,
  "POST /api/warnings/:id/acknowledge": none,
  "POST /api/messages/upload": { kind: "stream", max: MAX_REQUEST_BYTES },
  "POST /api/messages/upload-multiple": { kind: "stream", max: MAX_REQUEST_BYTES },
  "POST /api/users/avatar/upload": { kind: "stream", max: MAX_REQUEST_BYTES },
  "POST /api/reports": { kind: "stream", max: MAX_REPORT_BYTES },
  "OPTIONS /peerjs": none,
  "OPTIONS /peerjs/*": none,
  "POST /auth/login": { kind: "form", max: 4 * KB },
  "POST /auth/register": { kind: "form", max: 16 * KB },
  "POST /auth/guest": { kind: "form", max: 4 * KB },
  "POST /auth/logout": none,
  "POST /consent": { kind: "form", max: 4 * KB },
  // The polling fallback (realtime/poll-routes.ts): send reads its own JSON after the token.
  "POST /ws/poll/open": none,
  "POST /ws/poll/close": none,
  "POST /ws/poll/send": { kind: "own", max: MAX_SEND_BYTES },
  "POST /mod": { kind: "own", max: MAX_FORM_BYTES },
  "POST /mod/*": { kind: "own", max: MAX_FORM_BYTES },
  "POST /appeal/:token": { kind: "own", max: MAX_FORM_BYTES },
};

/** Methods whose routes never get a body read: Elysia parses none for them, and no handler reads one. */
export const BODYLESS_METHODS: ReadonlySet<string> = new Set(["GET", "HEAD", "WS"]);
