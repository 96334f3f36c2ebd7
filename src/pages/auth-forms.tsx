// The auth forms' no-JavaScript path: POST /auth/login, /auth/register, /auth/guest and
// /auth/logout as ordinary form posts. They reuse the JSON API's validation, services and limits,
// then answer 303 to "/" with the session cookie, or the landing page again with what was typed
// (never the password) and the errors, under the API's status code.
import { Elysia } from "elysia";
import { requestOrigin, type RequestOrigin } from "../auth/device.ts";
import { authCookies, loginWithLimit, takeSignup } from "../auth/index.ts";
import { guestBody, loginBody, registerBody } from "../auth/model.ts";
import { createGuest, register, revokeSession, sessionFor } from "../auth/service.ts";
import { carryDevice } from "../auth/user-devices.ts";
import type { AppContext } from "../context.ts";
import { AppError, validationError } from "../http/errors.ts";
import { clearedSessionCookie, isSecure, originAllowed, sessionCookie, sessionCookieOf } from "../http/request.ts";
import { validate } from "../http/validate.ts";
import type { FlashKind } from "../../islands/enhance/cookies.ts";
import { flashCookie } from "./chat/flash.ts";
import type { BanNotice } from "../realtime/protocol.ts";
import { echoValues, errorsOf, type AuthTab, type FormState } from "./landing/form-state.ts";
import { LandingPage } from "./landing/LandingPage.tsx";
import { INTEREST_SEPARATORS } from "../users/values.ts";
import { pageInfo } from "./page-info.ts";
import { htmlResponse, seeOther } from "./render.tsx";

/** Fields echoed back per tab; passwords never are. A ticked 18+ box stays ticked. */
const echoed: Record<AuthTab, readonly string[]> = {
  login: ["username"],
  register: ["username", "email", "name", "gender", "age", "country_code", "adult", "interests", "languages"],
  guest: ["gender", "adult"],
};

const foreignOrigin = () => new AppError(403, "forbidden", "This form was sent from another site. Please try again on this page.");

/** The register form's optional lists (issue 24): interests typed as "music, travel", languages chosen in a multiple select (one field or repeated). */
function formLists(form: Record<string, unknown>): { interests: string[]; languages: string[] } {
  const list = (value: unknown, separators: RegExp) =>
    (Array.isArray(value) ? value : [value])
      .flatMap((v) => (typeof v === "string" ? v.split(separators) : []))
      .map((v) => v.trim())
      .filter(Boolean);
  return { interests: list(form.interests, INTEREST_SEPARATORS), languages: list(form.languages, /,/) };
}

/** The validated value, or the field errors, so they can be merged with checks of our own. */
function checked<T>(run: () => T): { value: T | null; errors: Record<string, string> } {
  try {
    return { value: run(), errors: {} };
  } catch (error) {
    if (error instanceof AppError && error.code === "validation") return { value: null, errors: errorsOf(error).errors };
    throw error;
  }
}

/** A 403 `banned` answer as the form shows it: the reason (or, for a device or address, the message), the end and the appeal link. */
function banOf(error: AppError): BanNotice | undefined {
  if (error.code !== "banned") return undefined;
  const { reason, until, appeal_url } = error.extra;
  if (typeof appeal_url !== "string") return undefined;
  return { reason: typeof reason === "string" ? reason : error.message, until: typeof until === "string" ? until : null, appeal_url };
}

type Server = Parameters<typeof requestOrigin>[2];

export function authFormRoutes(ctx: AppContext) {
  const secure = (request: Request) => isSecure(request, ctx.config);
  const signedIn = (request: Request, token: string, kind: FlashKind, origin: RequestOrigin) =>
    seeOther("/", [...authCookies(origin, sessionCookie(token, secure(request))), flashCookie(kind, secure(request))]);

  /** Runs one form post; an AppError re-renders the form with its message and field errors. */
  async function handle(tab: AuthTab, request: Request, server: Server, body: unknown, run: (origin: RequestOrigin) => Promise<Response> | Response): Promise<Response> {
    const origin = requestOrigin(ctx.config, request, server);
    try {
      if (!originAllowed(request, ctx.config)) throw foreignOrigin();
      return await run(origin);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      const page = pageInfo(ctx.config, request, "/");
      const { errors, message } = errorsOf(error, page.locale);
      const ban = banOf(error);
      const form: FormState = {
        tab,
        values: echoValues(body, echoed[tab]),
        errors,
        message: Object.keys(errors).length > 0 ? page.t("error.check_fields") : message,
        ...(ban ? { ban } : {}),
      };
      // A banned answer keeps the device cookie it recorded (see auth/index.ts).
      const cookies = ban && origin.setCookie ? [origin.setCookie] : [];
      const response = htmlResponse(<LandingPage page={page} form={form} />, { status: error.status, noStore: true, cookies });
      const retry = error.extra.retryAfter;
      if (typeof retry === "number") response.headers.set("retry-after", String(retry));
      return response;
    }
  }

  return new Elysia()
    .post("/auth/login", ({ body, request, server }) =>
      handle("login", request, server, body, async (origin) => {
        const input = validate(loginBody, body, { convert: true });
        const identifier = input.username ?? "";
        if (!identifier) throw validationError({ username: "Enter your username or e-mail" });
        const { token } = await loginWithLimit(ctx, identifier, input.password, origin);
        return signedIn(request, token, "login", origin);
      }),
    )
    .post("/auth/register", ({ body, request, server }) =>
      handle("register", request, server, body, async (origin) => {
        const form = (typeof body === "object" && body !== null ? body : {}) as Record<string, unknown>;
        const { value: input, errors } = checked(() => validate(registerBody, { ...form, ...formLists(form) }, { convert: true }));
        if (form.password !== form.confirmPassword) errors.confirmPassword = "Passwords do not match";
        if (!input || Object.keys(errors).length > 0) throw validationError(errors);
        await takeSignup(ctx, request, server, "register");
        const { token, user } = await register(ctx.db, ctx.config.secret, input, origin);
        await carryDevice(ctx, user.id, origin.deviceId);
        ctx.hub.broadcast("new_user_registered", { name: user.name });
        return signedIn(request, token, "register", origin);
      }),
    )
    .post("/auth/guest", ({ body, request, server }) =>
      handle("guest", request, server, body, async (origin) => {
        const input = validate(guestBody, body, { convert: true });
        await takeSignup(ctx, request, server, "guest");
        const { token, user } = await createGuest(ctx.db, ctx.config.secret, input.gender, origin);
        await carryDevice(ctx, user.id, origin.deviceId);
        ctx.hub.broadcast("new_user_registered", { name: user.name });
        return signedIn(request, token, "guest", origin);
      }),
    )
    .post("/auth/logout", async ({ request }) => {
      if (!originAllowed(request, ctx.config)) return new Response("This form was sent from another site.", { status: 403 });
      const session = await sessionFor(ctx.db, ctx.config, sessionCookieOf(request));
      // Revoking closes the session's open sockets too (auth/sessions.ts onSessionsEnded).
      if (session) await revokeSession(ctx.db, session.id);
      return seeOther("/", [clearedSessionCookie(secure(request))]);
    });
}
