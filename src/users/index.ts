// HTTP: the people list, one person, the signed-in user's profile and their 18+ confirmation.
import { Type as t } from "@sinclair/typebox";
import { Elysia } from "elysia";
import { answers, ref } from "../api-docs/answers.ts";
import { operation } from "../api-docs/operation.ts";
import { authGuard } from "../auth/guard.ts";
import type { AppContext } from "../context.ts";
import { notFound, rateLimited, validationError } from "../http/errors.ts";
import { HOUR_MS, TokenBuckets } from "../http/rate-limit.ts";
import { routeBudget } from "../cluster/budget.ts";
import { validate } from "../http/validate.ts";
import { confirmAdult } from "./adult.ts";
import { MAX_SUGGESTIONS, SUGGEST_MIN_USES, suggestInterests } from "./interests.ts";
import { listQuery, parseListQuery } from "./list-query.ts";
import { nudityBlurBody, profileBody } from "./model.ts";
import { avatarUrl, listUsers, requireUser, setBlurNudity, toOwnUser, toPublicUser, updateProfile } from "./service.ts";

const userPage = t.Object({
  users: t.Array(ref.PublicUser),
  nextCursor: t.Union([t.String(), t.Null()]),
  total: t.Optional(t.Integer()),
  online: t.Optional(t.Integer()),
});

/** Confirming is a one-time act; a generous budget only stops a script hammering the row. */
export const CONFIRM_ADULT_PER_HOUR = 30;
/**
 * Each search or page may read the whole filtered set (a name is matched anywhere in it): typing
 * and scrolling stay far below this, a script looping over the list does not.
 */
/** A switch flipped by hand; the budget only stops a script writing the row in a loop. */
export const NUDITY_BLUR_CHANGES_PER_HOUR = 60;
export const LIST_READS = { perSecond: 3, burst: 30 };
/** Saving a profile by hand, even tag by tag, stays far below this; a script rewriting it (and the tag counts) does not. */
export const PROFILE_CHANGES_PER_HOUR = 120;
/** One read per keystroke of a tag being typed (the input waits for a pause first). */
export const SUGGESTION_READS = { perSecond: 5, burst: 20 };

const suggestionsQuery = t.Object({
  prefix: t.Optional(t.String({ maxLength: 100, error: "prefix must be at most 100 characters" })),
});

export function userRoutes(ctx: AppContext) {
  const confirmations = routeBudget(ctx.ports, "adult-confirmations", CONFIRM_ADULT_PER_HOUR, HOUR_MS);
  // Profiles one by one are for people looking at people: a script walking ids is held back.
  const profileReads = routeBudget(ctx.ports, "profile-reads", ctx.config.profileReadsPerMinute, 60_000);
  const blurChanges = routeBudget(ctx.ports, "blur-changes", NUDITY_BLUR_CHANGES_PER_HOUR, HOUR_MS);
  const listReads = new TokenBuckets(LIST_READS.perSecond, LIST_READS.burst);
  const profileChanges = routeBudget(ctx.ports, "profile-changes", PROFILE_CHANGES_PER_HOUR, HOUR_MS);
  const suggestionReads = new TokenBuckets(SUGGESTION_READS.perSecond, SUGGESTION_READS.burst);
  return new Elysia()
    .use(authGuard(ctx))
    .get("/api/users", async ({ query, user }) => {
      if (!listReads.take(user.id)) throw rateLimited(listReads.retryAfter(user.id));
      return await listUsers(ctx.db, user.id, parseListQuery(query, ctx.blocks.hiddenFrom(user.id)));
    }, {
      detail: operation({
        tag: "Users",
        summary: "Find people: everyone but me, online first, filtered and paged on the server",
        description: "The next page: cursor = the previous answer's nextCursor. total and online count the whole filtered set on the first page.",
        query: listQuery,
        ok: { description: "One page", schema: userPage },
        errors: [400, 429],
      }),
    })
    .get("/api/users/avatar/info", ({ user }) => ({ avatar_url: avatarUrl(user.avatarPath) }), {
      detail: operation({ tag: "Users", summary: "My avatar's address", ok: { description: "null without one", schema: answers.avatar } }),
    })
    .get("/api/users/:id", async ({ params, user }) => {
      await profileReads.take(user.id);
      if (!/^[1-9]\d{0,15}$/.test(params.id)) throw validationError({ id: "A user id is a positive whole number" });
      const id = Number(params.id);
      // Someone who blocked you is simply not there; the blocker can still open your profile.
      if (ctx.blocks.hasBlocked(id, user.id)) throw notFound("User not found");
      return { user: toPublicUser(await requireUser(ctx.db, id)) };
    }, {
      detail: operation({
        tag: "Users",
        summary: "One person's public profile",
        description: "404 for an unknown id and for someone who blocked the caller.",
        path: { id: "The person's id" },
        ok: { description: "The person", schema: answers.publicUser },
        errors: [400, 404, 429],
      }),
    })
    .put("/api/users/profile", async ({ body, user }) => {
      const input = validate(profileBody, body);
      await profileChanges.take(user.id);
      return { user: toOwnUser(await updateProfile(ctx.db, user, input)) };
    }, {
      detail: operation({
        tag: "Users",
        summary: "Change my profile",
        description: "A registered user's age stays within 18 to 99 and cannot be removed; avatars change only through the avatar calls.",
        json: profileBody,
        ok: { description: "The own record", schema: answers.ownUser },
        errors: [400, 429],
      }),
    })
    .get("/api/interests/suggestions", async ({ query, user }) => {
      if (!suggestionReads.take(user.id)) throw rateLimited(suggestionReads.retryAfter(user.id));
      const input = validate(suggestionsQuery, query);
      return { suggestions: await suggestInterests(ctx.db, input.prefix ?? "") };
    }, {
      detail: operation({
        tag: "Users",
        summary: "Interest tags to suggest while typing one",
        description: `Tags starting with the prefix that at least ${SUGGEST_MIN_USES} people list, most used first, at most ${MAX_SUGGESTIONS}. Never says who lists a tag.`,
        query: suggestionsQuery,
        ok: { description: "The tags", schema: t.Object({ suggestions: t.Array(t.String()) }) },
        errors: [400, 429],
      }),
    })
    .put("/api/users/nudity-blur", async ({ body, user }) => {
      const input = validate(nudityBlurBody, body);
      await blurChanges.take(user.id);
      return { user: toOwnUser(await setBlurNudity(ctx.db, user.id, input.blur_nudity)) };
    }, {
      detail: operation({
        tag: "Safety",
        summary: "Blur nudity in video and pictures, or not",
        description: "On by default. The classifier runs in the user's browser; this only stores the choice.",
        json: nudityBlurBody,
        ok: { description: "The own record with blur_nudity", schema: answers.ownUser },
        errors: [400, 429],
      }),
    })
    .post(
      "/api/users/confirm-adult",
      async ({ user }) => {
        await confirmations.take(user.id);
        return { user: toOwnUser((await confirmAdult(ctx.db, user.id, Date.now())) ?? (await requireUser(ctx.db, user.id))) };
      },
      // Nothing is read from the body: the act of calling is the confirmation.
      {
        parse: "none",
        detail: operation({
          tag: "Users",
          summary: "Confirm that I am 18 or older",
          description: "Needed before Video Roulette and calls by accounts made before the 18+ rule.",
          ok: { description: "The own record with adult_confirmed_at", schema: answers.ownUser },
          errors: [429],
        }),
      },
    );
}
