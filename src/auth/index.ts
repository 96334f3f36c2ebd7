// HTTP: register, login, guest entry, the current user and logout.
import { Elysia } from "elysia";
import type { AppContext } from "../context.ts";
import { rateLimited, validationError } from "../http/errors.ts";
import { clearedSessionCookie, clientAddress, isSecure, sessionCookie } from "../http/request.ts";
import { validate } from "../http/validate.ts";
import { toOwnUser } from "../users/service.ts";
import { authGuard } from "./guard.ts";
import { guestBody, loginBody, registerBody } from "./model.ts";
import { createGuest, login, register, revokeSession } from "./service.ts";

type Server = { requestIP(request: Request): { address: string } | null } | null;

/** Registrations and guest entries each have a per-address budget (SIGNUP_RATE_LIMIT an hour). */
export function takeSignup(ctx: AppContext, request: Request, server: Server, kind: "register" | "guest"): void {
  const address = clientAddress(request, server?.requestIP(request)?.address, ctx.config);
  const counter = kind === "register" ? ctx.limits.signups : ctx.limits.guests;
  if (!counter.take(address)) throw rateLimited(counter.retryAfter(address));
}

/** Login failures count per username, so one address cannot lock out everyone behind it. */
export async function loginWithLimit(ctx: AppContext, username: string, password: string) {
  const key = username.trim().toLowerCase();
  const wait = ctx.limits.loginFailures.retryAfter(key);
  if (wait > 0) throw rateLimited(wait);
  try {
    return await login(ctx.db, ctx.config.secret, username, password);
  } catch (error) {
    if ((error as { code?: string }).code === "invalid_credentials") ctx.limits.loginFailures.take(key);
    throw error;
  }
}

export function authRoutes(ctx: AppContext) {
  const announce = (name: string) => ctx.hub.broadcast("new_user_registered", { name });

  return new Elysia()
    .post("/api/auth/register", async ({ body, request, server, set }) => {
      const input = validate(registerBody, body);
      takeSignup(ctx, request, server, "register");
      const { token, user } = await register(ctx.db, ctx.config.secret, input);
      announce(user.name);
      set.status = 201;
      set.headers["set-cookie"] = sessionCookie(token, isSecure(request, ctx.config));
      return { token, user: toOwnUser(user) };
    })
    .post("/api/auth/login", async ({ body, request, set }) => {
      const input = validate(loginBody, body);
      const identifier = input.username ?? input.email;
      if (!identifier) throw validationError({ username: "Enter your username or e-mail" });
      const { token, user } = await loginWithLimit(ctx, identifier, input.password);
      set.headers["set-cookie"] = sessionCookie(token, isSecure(request, ctx.config));
      return { token, user: toOwnUser(user) };
    })
    .post("/api/guest/create", ({ body, request, server, set }) => {
      const input = validate(guestBody, body);
      takeSignup(ctx, request, server, "guest");
      const { token, user } = createGuest(ctx.db, ctx.config.secret, input.gender);
      announce(user.name);
      set.status = 201;
      set.headers["set-cookie"] = sessionCookie(token, isSecure(request, ctx.config));
      return { success: true, data: { token, user: toOwnUser(user) } };
    })
    .use(authGuard(ctx))
    .get("/api/auth/me", ({ user }) => ({ user: toOwnUser(user) }))
    .post("/api/auth/logout", ({ session, request, set }) => {
      revokeSession(ctx.db, session.id);
      ctx.hub.closeSession(session.id, 4401, "Signed out");
      set.headers["set-cookie"] = clearedSessionCookie(isSecure(request, ctx.config));
      return { success: true };
    });
}
