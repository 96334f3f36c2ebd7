// The bearer guard for /api: resolves the signed-in user or answers 401. The session cookie is
// deliberately not read here, so no state-changing /api call is authorised by the cookie alone.
import { Elysia } from "elysia";
import type { AppContext } from "../context.ts";
import { unauthorized } from "../http/errors.ts";
import { bearerToken } from "../http/request.ts";
import { sessionFor } from "./service.ts";

export function authGuard(ctx: AppContext) {
  return new Elysia().resolve({ as: "scoped" }, ({ request }) => {
    const session = sessionFor(ctx.db, ctx.config, bearerToken(request.headers.get("authorization")));
    if (!session) throw unauthorized("Your session has ended. Please sign in again.");
    return { session, user: session.user };
  });
}
