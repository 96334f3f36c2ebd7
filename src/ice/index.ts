// HTTP: GET /api/ice, the ICE servers a signed-in browser uses for its next call or roulette
// connection, with TURN credentials minted for its session (API.md "IP privacy: TURN relay").
// The browser asks before every connection, so no credential sits for hours in a page.
import { Type as t } from "@sinclair/typebox";
import { Elysia } from "elysia";
import { operation } from "../api-docs/operation.ts";
import { authGuard } from "../auth/guard.ts";
import type { IceServer } from "../config.ts";
import type { AppContext } from "../context.ts";
import { routeBudget } from "../cluster/budget.ts";
import { iso } from "../time.ts";
import { mintTurnCredential } from "./credentials.ts";

/** One per connection is what a person needs; Next every two seconds for a minute stays under it. */
export const ICE_REQUESTS_PER_MINUTE = 60;

const iceAnswer = t.Object({
  iceServers: t.Array(t.Object({ urls: t.Union([t.String(), t.Array(t.String())]), username: t.Optional(t.String()), credential: t.Optional(t.String()) })),
  iceTransportPolicy: t.Union([t.Literal("all"), t.Literal("relay")]),
  expiresAt: t.Union([t.String({ format: "date-time" }), t.Null()], { description: "When the TURN credentials stop working; null without a relay" }),
});

export function iceAnswerFor(ctx: AppContext, sessionId: string, now = Date.now()) {
  const { turn, iceServers, iceTransportPolicy, secret } = ctx.config;
  const servers: IceServer[] = iceServers.map((s) => ({ ...s }));
  if (!turn) return { iceServers: servers, iceTransportPolicy, expiresAt: null };
  const minted = mintTurnCredential(turn, secret, sessionId, now);
  servers.unshift({ urls: [...turn.urls], username: minted.username, credential: minted.credential });
  return { iceServers: servers, iceTransportPolicy, expiresAt: iso(minted.expiresAt) };
}

export function iceRoutes(ctx: AppContext) {
  const requests = routeBudget(ctx.ports, "ice", ICE_REQUESTS_PER_MINUTE, 60_000);
  return new Elysia().use(authGuard(ctx)).get(
    "/api/ice",
    async ({ session, user, set }) => {
      await requests.take(user.id);
      // Credentials are per session and short-lived: no cache may keep or share them.
      set.headers["cache-control"] = "no-store";
      return iceAnswerFor(ctx, session.id);
    },
    {
      detail: operation({
        tag: "Calls",
        summary: "ICE servers and fresh TURN credentials for the next connection",
        description: `TURN REST credentials (username "<expiry unix seconds>:<opaque id>", credential base64 HMAC-SHA1 of the username with TURN_SECRET). ${ICE_REQUESTS_PER_MINUTE} a minute per user.`,
        ok: { description: "The RTCConfiguration members to use", schema: iceAnswer },
        errors: [429],
      }),
    },
  );
}
