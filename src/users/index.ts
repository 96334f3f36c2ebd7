// HTTP: the people list, one person, the signed-in user's profile and their 18+ confirmation.
import { Elysia } from "elysia";
import { authGuard } from "../auth/guard.ts";
import type { AppContext } from "../context.ts";
import { notFound, rateLimited, validationError } from "../http/errors.ts";
import { Budget, HOUR_MS, TokenBuckets } from "../http/rate-limit.ts";
import { validate } from "../http/validate.ts";
import { confirmAdult } from "./adult.ts";
import { parseListQuery } from "./list-query.ts";
import { profileBody } from "./model.ts";
import { avatarUrl, listUsers, requireUser, toOwnUser, toPublicUser, updateProfile } from "./service.ts";

/** Confirming is a one-time act; a generous budget only stops a script hammering the row. */
export const CONFIRM_ADULT_PER_HOUR = 30;
/**
 * Each search or page may read the whole filtered set (a name is matched anywhere in it): typing
 * and scrolling stay far below this, a script looping over the list does not.
 */
export const LIST_READS = { perSecond: 3, burst: 30 };

export function userRoutes(ctx: AppContext) {
  const confirmations = new Budget(CONFIRM_ADULT_PER_HOUR, HOUR_MS);
  // Profiles one by one are for people looking at people: a script walking ids is held back.
  const profileReads = new Budget(ctx.config.profileReadsPerMinute, 60_000);
  const listReads = new TokenBuckets(LIST_READS.perSecond, LIST_READS.burst);
  return new Elysia()
    .use(authGuard(ctx))
    .get("/api/users", ({ query, user }) => {
      if (!listReads.take(user.id)) throw rateLimited(listReads.retryAfter(user.id));
      return listUsers(ctx.db, user.id, parseListQuery(query, ctx.blocks.hiddenFrom(user.id)));
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
