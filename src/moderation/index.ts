// HTTP for the person being moderated: their unacknowledged warnings, and acknowledging one.
// (The console itself is server-rendered under /mod, in src/pages/mod.)
import { Type as t } from "@sinclair/typebox";
import { HOUR_MS } from "../http/rate-limit.ts";
import { routeBudget } from "../cluster/budget.ts";
import { Elysia } from "elysia";
import { ref } from "../api-docs/answers.ts";
import { operation } from "../api-docs/operation.ts";
import { authGuard } from "../auth/guard.ts";
import type { AppContext } from "../context.ts";
import { validationError } from "../http/errors.ts";
import { acknowledge, unacknowledged } from "./warnings.ts";

/** Reading is cheap; acknowledging writes a row. A person has a handful of warnings at most. */
export const WARNING_ACKS_PER_HOUR = 60;
export const WARNING_READS_PER_HOUR = 600;

export function moderationRoutes(ctx: AppContext) {
  const acks = routeBudget(ctx.ports, "warning-acks", WARNING_ACKS_PER_HOUR, HOUR_MS);
  const reads = routeBudget(ctx.ports, "warning-reads", WARNING_READS_PER_HOUR, HOUR_MS);
  return new Elysia()
    .use(authGuard(ctx))
    .get("/api/warnings", async ({ user }) => {
      await reads.take(user.id);
      return { warnings: await unacknowledged(ctx.db, user.id) };
    }, {
      detail: operation({
        tag: "Safety",
        summary: "A moderator's warnings to me not yet acknowledged",
        ok: { description: "Oldest first", schema: t.Object({ warnings: t.Array(ref.WarningNotice) }) },
        errors: [429],
      }),
    })
    .post("/api/warnings/:id/acknowledge", async ({ params, user }) => {
      if (!/^[1-9]\d{0,15}$/.test(params.id)) throw validationError({ id: "A warning id is a positive whole number" });
      await acks.take(user.id);
      return { warning: await acknowledge(ctx.db, user.id, Number(params.id)) };
    }, {
      detail: operation({
        tag: "Safety",
        summary: "Acknowledge a warning",
        path: { id: "The warning's id" },
        ok: { description: "The warning", schema: t.Object({ warning: ref.WarningNotice }) },
        errors: [400, 404, 429],
      }),
    });
}
