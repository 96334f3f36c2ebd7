// HTTP: the privacy setting "Who can message and call me" (API.md "Safety", Privacy).
import { Budget, HOUR_MS } from "../http/rate-limit.ts";
import { Type as t } from "@sinclair/typebox";
import { Elysia } from "elysia";
import { authGuard } from "../auth/guard.ts";
import type { AppContext } from "../context.ts";
import { validate } from "../http/validate.ts";
import { toOwnUser } from "../users/service.ts";
import { setAllowFrom } from "./service.ts";

export const PRIVACY_CHANGES_PER_HOUR = 60;

const privacyBody = t.Object({
  allowFrom: t.Union([t.Literal("everyone"), t.Literal("contacts")], { error: 'allowFrom must be "everyone" or "contacts"' }),
});

export function privacyRoutes(ctx: AppContext) {
  const changes = new Budget(PRIVACY_CHANGES_PER_HOUR, HOUR_MS);
  return new Elysia().use(authGuard(ctx)).put("/api/users/privacy", ({ body, user }) => {
    const { allowFrom } = validate(privacyBody, body);
    changes.take(user.id);
    return { user: toOwnUser(setAllowFrom(ctx.db, ctx.contacts, user.id, allowFrom)) };
  });
}
