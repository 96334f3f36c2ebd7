// The bearer guard for /api: resolves the signed-in user or answers 401. The session cookie is
// deliberately not read here, so no state-changing /api call is authorised by the cookie alone.
import { Elysia } from "elysia";
import type { AppContext } from "../context.ts";
import { unauthorized } from "../http/errors.ts";
import { bearerToken } from "../http/request.ts";
import { sessionFor, type Session } from "./service.ts";
import { checkSession } from "./sessions.ts";

/** The session behind the request's bearer token, or 401. */
export async function authenticate(ctx: AppContext, request: Request): Promise<Session> {
  const session = await sessionFor(ctx.db, ctx.config, bearerToken(request.headers.get("authorization")));
  if (!session) throw unauthorized("Your session has ended. Please sign in again.");
  return session;
}

/** Every guard's resolver, so the body gate can tell from a route's hooks that it is guarded. */
const resolvers = new WeakSet<object>();

/** Whether a route's hooks (from `app.routes`: Elysia keeps resolvers under beforeHandle) include the bearer guard. */
export function isGuarded(hooks: unknown): boolean {
  if (typeof hooks !== "object" || hooks === null || !("beforeHandle" in hooks) || !Array.isArray(hooks.beforeHandle)) return false;
  return hooks.beforeHandle.some((hook: unknown) => typeof hook === "object" && hook !== null && "fn" in hook && typeof hook.fn === "function" && resolvers.has(hook.fn));
}

export function authGuard(ctx: AppContext) {
  // The body gate (http/body/gate.ts) has already checked the token of a route that takes a body,
  // before reading it; checking again here is one indexed read and catches a session revoked
  // while the body arrived.
  // A request that moved its session's expiry (once a minute) or found it expired is answered
  // once that write has committed, as when the write was made in place.
  // (Declared async: Elysia awaits a resolver only when it is.)
  const resolve = async ({ request }: { request: Request }) => {
    const { session, written } = await checkSession(ctx.db, ctx.config, bearerToken(request.headers.get("authorization")));
    if (written) await written;
    if (!session) throw unauthorized("Your session has ended. Please sign in again.");
    return { session, user: session.user };
  };
  resolvers.add(resolve);
  return new Elysia().resolve({ as: "scoped" }, resolve);
}
