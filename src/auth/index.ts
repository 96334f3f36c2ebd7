// HTTP: register, login, guest entry, the current user and logout.
import { Elysia } from "elysia";
import type { AppContext } from "../context.ts";
import { errorResponse } from "../http/error-response.ts";
import { AppError, rateLimited, validationError } from "../http/errors.ts";
import { clearedSessionCookie, clientAddress, isSecure, sessionCookie } from "../http/request.ts";
import { validate } from "../http/validate.ts";
import { toOwnUser } from "../users/service.ts";
import { authGuard } from "./guard.ts";
import { guestBody, loginBody, registerBody } from "./model.ts";
import { requestOrigin, type RequestOrigin } from "./device.ts";
import { createGuest, login, register, revokeSession } from "./service.ts";

type Server = { requestIP(request: Request): { address: string } | null } | null;

/** Registrations and guest entries each have a per-address budget (SIGNUP_RATE_LIMIT an hour). */
export function takeSignup(ctx: AppContext, request: Request, server: Server, kind: "register" | "guest"): void {
  const address = clientAddress(request, server?.requestIP(request)?.address, ctx.config);
  const counter = kind === "register" ? ctx.limits.signups : ctx.limits.guests;
  if (!counter.take(address)) throw rateLimited(counter.retryAfter(address));
}

/** Login failures count per username, so one address cannot lock out everyone behind it. */
export async function loginWithLimit(ctx: AppContext, username: string, password: string, origin: RequestOrigin) {
  const key = username.trim().toLowerCase();
  const wait = ctx.limits.loginFailures.retryAfter(key);
  if (wait > 0) throw rateLimited(wait);
  try {
    return await login(ctx.db, ctx.config.secret, username, password, origin);
  } catch (error) {
    if ((error as { code?: string }).code === "invalid_credentials") ctx.limits.loginFailures.take(key);
    throw error;
  }
}

/** The session cookie, and the device cookie when the browser had none. */
export function authCookies(origin: RequestOrigin, sessionSetCookie: string): string[] {
  return origin.setCookie ? [sessionSetCookie, origin.setCookie] : [sessionSetCookie];
}

/**
 * A 403 `banned` answer still gives the browser its device cookie: the device a banned person
 * tried to sign in from is recorded with the ban, and must be recognised when it comes back.
 */
async function bannedWithDevice(request: Request, origin: RequestOrigin, run: () => Promise<object>): Promise<object | Response> {
  try {
    return await run();
  } catch (error) {
    if (!(error instanceof AppError) || error.code !== "banned" || !origin.setCookie) throw error;
    const response = errorResponse(undefined, error, request);
    response.headers.append("set-cookie", origin.setCookie);
    return response;
  }
}

export function authRoutes(ctx: AppContext) {
  const announce = (name: string) => ctx.hub.broadcast("new_user_registered", { name });
  const originOf = (request: Request, server: Parameters<typeof requestOrigin>[2]) => requestOrigin(ctx.config, request, server);

  return new Elysia()
    .post("/api/auth/register", async ({ body, request, server, set }) => {
      const input = validate(registerBody, body);
      takeSignup(ctx, request, server, "register");
      const origin = originOf(request, server);
      const { token, user } = await register(ctx.db, ctx.config.secret, input, origin);
      announce(user.name);
      set.status = 201;
      set.headers["set-cookie"] = authCookies(origin, sessionCookie(token, isSecure(request, ctx.config)));
      return { token, user: toOwnUser(user) };
    })
    .post("/api/auth/login", async ({ body, request, server, set }) => {
      const input = validate(loginBody, body);
      const identifier = input.username ?? input.email;
      if (!identifier) throw validationError({ username: "Enter your username or e-mail" });
      const origin = originOf(request, server);
      return bannedWithDevice(request, origin, async () => {
        const { token, user } = await loginWithLimit(ctx, identifier, input.password, origin);
        set.headers["set-cookie"] = authCookies(origin, sessionCookie(token, isSecure(request, ctx.config)));
        return { token, user: toOwnUser(user) };
      });
    })
    .post("/api/guest/create", ({ body, request, server, set }) => {
      const input = validate(guestBody, body);
      takeSignup(ctx, request, server, "guest");
      const origin = originOf(request, server);
      const { token, user } = createGuest(ctx.db, ctx.config.secret, input.gender, origin);
      announce(user.name);
      set.status = 201;
      set.headers["set-cookie"] = authCookies(origin, sessionCookie(token, isSecure(request, ctx.config)));
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
