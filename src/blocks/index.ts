// HTTP: block and unblock a person (or a Video Roulette stranger, never named), and one's list.
import { HOUR_MS } from "../http/rate-limit.ts";
import { routeBudget } from "../cluster/budget.ts";
import { Type as t } from "@sinclair/typebox";
import { Elysia } from "elysia";
import { ref } from "../api-docs/answers.ts";
import { operation } from "../api-docs/operation.ts";
import { authGuard } from "../auth/guard.ts";
import type { AppContext } from "../context.ts";
import { validationError } from "../http/errors.ts";
import { validate } from "../http/validate.ts";
import { requireUser } from "../users/service.ts";
import { block, blockView, listBlocks, unblock } from "./service.ts";
import { blockStranger } from "./strangers.ts";

/** Blocks and unblocks together, per user: plenty for a person, a wall for a script. */
export const BLOCK_CHANGES_PER_HOUR = 60;

const idError = "A user id is a positive whole number";

const blockBody = t.Object({
  userId: t.Optional(t.Union([t.Integer({ minimum: 1 }), t.String({ pattern: "^[1-9][0-9]{0,15}$" })], { error: idError })),
  rouletteId: t.Optional(t.String({ minLength: 1, maxLength: 64, error: "rouletteId is the id of a Video Roulette session" })),
});

const blockAnswer = t.Object({ block: t.Object({ user: t.Union([ref.PublicUser, t.Null()]), created_at: t.String({ format: "date-time" }) }) });
const blockList = t.Object({
  users: t.Array(t.Intersect([ref.PublicUser, t.Object({ blocked_at: t.String({ format: "date-time" }) })])),
  strangers: t.Integer(),
});

function pathId(raw: string): number {
  if (!/^[1-9]\d{0,15}$/.test(raw)) throw validationError({ userId: idError });
  return Number(raw);
}

export function blockRoutes(ctx: AppContext) {
  const changes = routeBudget(ctx.ports, "blocks", BLOCK_CHANGES_PER_HOUR, HOUR_MS);
  return new Elysia()
    .use(authGuard(ctx))
    .get("/api/blocks", ({ user }) => listBlocks(ctx, user.id), {
      detail: operation({
        tag: "Safety",
        summary: "The people I blocked, newest first",
        description: "strangers counts the Video Roulette pairings blocked (never named; it changes only when one is blocked).",
        ok: { description: "The list", schema: blockList },
      }),
    })
    .post("/api/blocks", async ({ body, user, set }) => {
      const input = validate(blockBody, body);
      if ((input.userId === undefined) === (input.rouletteId === undefined)) {
        throw validationError({ userId: "Send either userId or rouletteId" });
      }
      await changes.take(user.id);
      if (input.rouletteId !== undefined) {
        const result = await blockStranger(ctx, user.id, input.rouletteId);
        set.status = result.created ? 201 : 200;
        return blockView(null, result.createdAt);
      }
      const blockedId = Number(input.userId);
      if (blockedId === user.id) throw validationError({ userId: "You cannot block yourself" });
      const blocked = await requireUser(ctx.db, blockedId);
      const result = await block(ctx, user, blockedId);
      set.status = result.created ? 201 : 200;
      return blockView(blocked, result.createdAt);
    }, {
      detail: operation({
        tag: "Safety",
        summary: "Block a person, or the current Video Roulette stranger",
        description: "Send userId or rouletteId. A named block ends any call or roulette pair between the two; a rouletteId only keeps the two from being paired again and ends that pairing as Next does. 200 when the block (or that pairing's) already existed.",
        json: blockBody,
        ok: { status: 201, description: "Blocked (user is null for a stranger)", schema: blockAnswer },
        errors: [400, 404, 429],
      }),
    })
    .delete("/api/blocks/:userId", async ({ params, user, set }) => {
      const blockedId = pathId(params.userId);
      await changes.take(user.id);
      await unblock(ctx, user, blockedId);
      set.status = 204;
      return "";
    }, {
      detail: operation({
        tag: "Safety",
        summary: "Unblock a person",
        description: "Also 204 when there was no block.",
        path: { userId: "The blocked person's id" },
        ok: { status: 204, description: "Not blocked (any more)" },
        errors: [400, 429],
      }),
    });
}
