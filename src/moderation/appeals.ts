// Appeals, filed from the link in the ban notice (no session needed): one per ban, while the ban
// runs, at most 1000 characters. The console lists and decides them (ban-actions.ts).
import { eq } from "drizzle-orm";
import { appeals, bans, type AppealRow } from "../storage/tables.ts";
import type { AppContext } from "../context.ts";
import { transaction, type Db } from "../storage/index.ts";
import { AppError, notFound } from "../http/errors.ts";
import { requireReason } from "./actor.ts";
import { banIdOfAppealToken } from "./appeal-token.ts";
import { isRunning } from "./bans.ts";

export async function appealFor(db: Db, banId: number): Promise<AppealRow | undefined> {
  return (await db.select().from(appeals).where(eq(appeals.banId, banId)).limit(1))[0];
}

export async function fileAppeal(ctx: Pick<AppContext, "db" | "config">, token: string, text: string, now = Date.now()): Promise<AppealRow> {
  const banId = banIdOfAppealToken(ctx.config.secret, token);
  const ban = banId === null ? undefined : (await ctx.db.select().from(bans).where(eq(bans.id, banId)).limit(1))[0];
  if (!ban) throw notFound("This appeal link is not valid");
  const body = requireReason(text, "text", "Write your appeal in 1 to 1000 characters");
  if (!isRunning(ban, now)) throw new AppError(409, "ban_ended", "This ban is no longer in force, so there is nothing to appeal");
  const exists = () => new AppError(409, "appeal_exists", "You have already appealed this ban");
  if (await appealFor(ctx.db, ban.id)) throw exists();
  // Two appeals racing: the unique index on ban_id decides (no row back: the other was first).
  const [row] = await transaction(ctx.db, (tx) => tx
    .insert(appeals)
    .values({ banId: ban.id, userId: ban.userId, text: body, createdAt: now })
    .onConflictDoNothing({ target: appeals.banId })
    .returning());
  if (!row) throw exists();
  return row;
}
