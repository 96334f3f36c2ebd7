// HTTP: the people list, one person, and the signed-in user's profile.
import { Elysia } from "elysia";
import { authGuard } from "../auth/guard.ts";
import type { AppContext } from "../context.ts";
import { validate } from "../http/validate.ts";
import { listQuery, profileBody } from "./model.ts";
import { avatarUrl, listUsers, requireUser, toOwnUser, toPublicUser, updateProfile } from "./service.ts";
import { validationError } from "../http/errors.ts";

const MAX_LIST_LIMIT = 500;

export function userRoutes(ctx: AppContext) {
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
      });
    })
    .get("/api/users/avatar/info", ({ user }) => ({ avatar_url: avatarUrl(user.avatarPath) }))
    .get("/api/users/:id", ({ params }) => {
      if (!/^[1-9]\d{0,15}$/.test(params.id)) throw validationError({ id: "A user id is a positive whole number" });
      return { user: toPublicUser(requireUser(ctx.db, Number(params.id))) };
    })
    .put("/api/users/profile", ({ body, user }) => {
      const input = validate(profileBody, body);
      return { user: toOwnUser(updateProfile(ctx.db, user.id, input)) };
    });
}
