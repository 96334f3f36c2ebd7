// HTTP: the privacy setting "Who can message and call me" (API.md "Safety", Privacy).
import { HOUR_MS } from "../http/rate-limit.ts";
import { routeBudget } from "../cluster/budget.ts";
import { Type as t } from "@sinclair/typebox";
import { Elysia } from "elysia";
import { answers } from "../api-docs/answers.ts";
import { operation } from "../api-docs/operation.ts";
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
  const changes = routeBudget(ctx.ports, "privacy", PRIVACY_CHANGES_PER_HOUR, HOUR_MS);
  return new Elysia().use(authGuard(ctx)).put("/api/users/privacy", async ({ body, user }) => {
    const { allowFrom } = validate(privacyBody, body);
    await changes.take(user.id);
    return { user: toOwnUser(await setAllowFrom(ctx.db, ctx.contacts, user.id, allowFrom)) };
  }, {
    detail: operation({
      tag: "Safety",
      summary: "Choose who may message and call me",
      description: '"contacts" are people the user has written to; strangers then get 403 not_accepting.',
      json: privacyBody,
      ok: { description: "The own record with allow_from", schema: answers.ownUser },
      errors: [400, 429],
    }),
  });
}
