// HTTP: the people list, one person, the signed-in user's profile and their 18+ confirmation.
import { Elysia } from "elysia";
import { authGuard } from "../auth/guard.ts";
import type { AppContext } from "../context.ts";
import { notFound, validationError } from "../http/errors.ts";
import { Budget, HOUR_MS } from "../http/rate-limit.ts";
import { validate } from "../http/validate.ts";
import { confirmAdult } from "./adult.ts";
import { listQuery, profileBody } from "./model.ts";
import { avatarUrl, listUsers, requireUser, toOwnUser, toPublicUser, updateProfile } from "./service.ts";

const MAX_LIST_LIMIT = 500;
/** Confirming is a one-time act; a generous budget only stops a script hammering the row. */
export const CONFIRM_ADULT_PER_HOUR = 30;

export function userRoutes(ctx: AppContext) {
  const confirmations = new Budget(CONFIRM_ADULT_PER_HOUR, HOUR_MS);
  // Profiles one by one are for people looking at people: a script walking ids is held back.
  const profileReads = new Budget(ctx.config.profileReadsPerMinute, 60_000);
  return new Elysia()
    .use(authGuard(ctx))
    .get("/api/users", ({ query, user }) => {
      const q = validate(listQuery, query);
      const number = (raw: string | undefined) => (raw === undefined ? undefined : Number(raw));
      return listUsers(ctx.db, user.id, {
        q: q.q?.trim() || undefined,
        gender: q.gender || undefined,
        orientation: q.orientation || undefined,
        country: q.country?.trim() || undefined,
        minAge: number(q.minAge),
        maxAge: number(q.maxAge),
        onlineOnly: q.online === "1" || q.online === "true",
        // "At most 500": a larger limit is capped.
        limit: q.limit === undefined ? undefined : Math.min(Number(q.limit), MAX_LIST_LIMIT),
        hidden: ctx.blocks.hiddenFrom(user.id),
      });
    })
    .get("/api/users/avatar/info", ({ user }) => ({ avatar_url: avatarUrl(user.avatarPath) }))
    .get("/api/users/:id", ({ params, user }) => {
      profileReads.take(user.id);
      if (!/^[1-9]\d{0,15}$/.test(params.id)) throw validationError({ id: "A user id is a positive whole number" });
      const id = Number(params.id);
      // Someone who blocked you is simply not there; the blocker can still open your profile.
      if (ctx.blocks.hasBlocked(id, user.id)) throw notFound("User not found");
      return { user: toPublicUser(requireUser(ctx.db, id)) };
    })
    .put("/api/users/profile", ({ body, user }) => {
      const input = validate(profileBody, body);
      return { user: toOwnUser(updateProfile(ctx.db, user, input)) };
    })
    .post(
      "/api/users/confirm-adult",
      ({ user }) => {
        confirmations.take(user.id);
        return { user: toOwnUser(confirmAdult(ctx.db, user.id, Date.now()) ?? requireUser(ctx.db, user.id)) };
      },
      // Nothing is read from the body: the act of calling is the confirmation.
      { parse: "none" },
    );
}
