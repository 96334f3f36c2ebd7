// HTTP: register, login, guest entry, the current user and logout.
import { Elysia } from "elysia";
import { answers } from "../api-docs/answers.ts";
import { operation } from "../api-docs/operation.ts";
import type { AppContext } from "../context.ts";
import { errorResponse } from "../http/error-response.ts";
import { AppError, rateLimited, validationError } from "../http/errors.ts";
import { clearedSessionCookie, clientAddress, isSecure, sessionCookie } from "../http/request.ts";
import { validate } from "../http/validate.ts";
import { toOwnUser } from "../users/service.ts";
import { authGuard } from "./guard.ts";
import { guestBody, loginBody, registerBody } from "./model.ts";
import { requestOrigin, type RequestOrigin } from "./device.ts";
import { refuseForeignOrigin } from "./json-body.ts";
import { createGuest, findAccount, login, register } from "./service.ts";
import { knownDevice, revokeSession } from "./sessions.ts";
import { carryDevice } from "./user-devices.ts";

type Server = { requestIP(request: Request): { address: string } | null } | null;

/** Registrations and guest entries each have a per-address budget (SIGNUP_RATE_LIMIT an hour). */
export async function takeSignup(ctx: AppContext, request: Request, server: Server, kind: "register" | "guest"): Promise<void> {
  const address = clientAddress(request, server?.requestIP(request)?.address, ctx.config);
  const wait = await (kind === "register" ? ctx.limits.signups : ctx.limits.guests).take(address);
  if (wait > 0) throw rateLimited(wait);
}

/**
 * Logs in within the failed-login budgets (login-limit.ts): a failure slot is reserved before the
 * password hash and given back unless the password was wrong. Shared by the JSON API and the form.
 */
export async function loginWithLimit(ctx: AppContext, identifier: string, password: string, origin: RequestOrigin) {
  const account = await findAccount(ctx.db, identifier);
  // A device cookie the server just made up (setCookie) has never signed in anywhere.
  const known = account && origin.setCookie === null && (await knownDevice(ctx.db, account.id, origin.deviceId, ctx.config.sessionTtlMs));
  const held = await ctx.limits.loginFailures.reserve({
    account: account ? `user:${account.id}` : `name:${identifier.trim().toLowerCase()}`,
    address: origin.address,
    knownDevice: known ? origin.deviceId : null,
  });
  if ("retryAfter" in held) throw rateLimited(held.retryAfter);
  try {
    const result = await login(ctx.db, ctx.config.secret, identifier, password, origin);
    await held.release();
    return result;
  } catch (error) {
    // Only a wrong password spends the slot; a right one answered `banned` does not.
    if (!(error instanceof AppError && error.code === "invalid_credentials")) await held.release();
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
  /**
   * The site's own pages only, JSON only (the body gate answered 415 to anything else, see
   * http/body/rules.ts): checked before anything is done, so a refusal sets no cookie.
   */
  const sameSiteJson = (request: Request, body: unknown) => {
    refuseForeignOrigin(request, ctx.config);
    return body;
  };

  return new Elysia()
    .post("/api/auth/register", async ({ body, request, server, set }) => {
      const input = validate(registerBody, sameSiteJson(request, body));
      await takeSignup(ctx, request, server, "register");
      const origin = originOf(request, server);
      const { token, user } = await register(ctx.db, ctx.config.secret, input, origin);
      // Blocks and a roulette suspension follow the browser to the new account (user-devices.ts).
      await carryDevice(ctx, user.id, origin.deviceId);
      announce(user.name);
      set.status = 201;
      set.headers["set-cookie"] = authCookies(origin, sessionCookie(token, isSecure(request, ctx.config)));
      return { token, user: toOwnUser(user) };
    }, {
      detail: operation({
        tag: "Auth",
        summary: "Create an account and sign in",
        description: "JSON only; an Origin header must be the site's own. Everyone else hears new_user_registered.",
        public: true,
        json: registerBody,
        ok: { status: 201, description: "The new session", schema: answers.session },
        errors: [400, 403, 409, 415, 429],
      }),
    })
    .post("/api/auth/login", async ({ body, request, server, set }) => {
      const input = validate(loginBody, sameSiteJson(request, body));
      const identifier = input.username ?? input.email;
      if (!identifier) throw validationError({ username: "Enter your username or e-mail" });
      const origin = originOf(request, server);
      return bannedWithDevice(request, origin, async () => {
        const { token, user } = await loginWithLimit(ctx, identifier, input.password, origin);
        set.headers["set-cookie"] = authCookies(origin, sessionCookie(token, isSecure(request, ctx.config)));
        return { token, user: toOwnUser(user) };
      });
    }, {
      detail: operation({
        tag: "Auth",
        summary: "Sign in with a username (or e-mail) and password",
        description: "A wrong name or password answer alike (401 invalid_credentials); a banned account answers 403 banned with until, reason and appeal_url.",
        public: true,
        json: loginBody,
        ok: { description: "The new session", schema: answers.session },
        errors: [400, 401, 403, 415, 429],
      }),
    })
    .post("/api/guest/create", async ({ body, request, server, set }) => {
      const input = validate(guestBody, sameSiteJson(request, body));
      await takeSignup(ctx, request, server, "guest");
      const origin = originOf(request, server);
      const { token, user } = await createGuest(ctx.db, ctx.config.secret, input.gender, origin);
      await carryDevice(ctx, user.id, origin.deviceId);
      announce(user.name);
      set.status = 201;
      set.headers["set-cookie"] = authCookies(origin, sessionCookie(token, isSecure(request, ctx.config)));
      return { success: true, data: { token, user: toOwnUser(user) } };
    }, {
      detail: operation({
        tag: "Auth",
        summary: "Enter as a guest",
        description: "A generated username such as Guest_k3x9q2.",
        public: true,
        json: guestBody,
        ok: { status: 201, description: "The guest's session", schema: answers.guestSession },
        errors: [400, 403, 415, 429],
      }),
    })
    .use(authGuard(ctx))
    .get("/api/auth/me", ({ request, user }) => {
      refuseForeignOrigin(request, ctx.config);
      return { user: toOwnUser(user) };
    }, { detail: operation({ tag: "Auth", summary: "The signed-in user", ok: { description: "The own record", schema: answers.ownUser }, errors: [403] }) })
    // The body gate refuses a form body here like on the other sign-in routes; an empty one is fine.
    .post("/api/auth/logout", async ({ session, request, set }) => {
      refuseForeignOrigin(request, ctx.config);
      await revokeSession(ctx.db, session.id);
      set.headers["set-cookie"] = clearedSessionCookie(isSecure(request, ctx.config));
      return { success: true };
    }, {
      detail: operation({
        tag: "Auth",
        summary: "End this session",
        description: "Its sockets close with 4401; the user goes offline when no other session is connected.",
        ok: { description: "Signed out", schema: answers.success },
        errors: [403, 415],
      }),
    });
}
