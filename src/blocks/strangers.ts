// Blocking a Video Roulette stranger by pairing id (issue 18, item 1). Such a block must reveal
// nothing to either side, so it shares nothing with named blocks: its own table, never read by
// named block or unblock, lists, presence or the message gate. Its one effect is that the two are
// never paired again (the queue's keep-apart set, as after a report); when it names the running
// pairing, that pairing ends exactly as if the blocker pressed Stop.
import { and, count, eq } from "drizzle-orm";
import { rouletteBlocks } from "../../db/schema.ts";
import type { AppContext } from "../context.ts";
import { notFound } from "../http/errors.ts";
import { leaveRoulette } from "../realtime/handlers/roulette.ts";

export interface StrangerBlock {
  /** False when this pairing was blocked before (answered 200 instead of 201). */
  created: boolean;
  createdAt: number;
}

/**
 * One row per pairing: blocking a second pairing always answers 201 and counts one more, even
 * when both were the same person, so neither the status nor the count links two pairings.
 */
export function blockStranger(ctx: AppContext, blockerId: number, rouletteId: string): StrangerBlock {
  const strangerId = ctx.roulette.strangerOf(rouletteId, blockerId);
  if (strangerId === undefined) throw notFound("That Video Roulette session is over or unknown");
  const now = Date.now();
  const inserted = ctx.db
    .insert(rouletteBlocks)
    .values({ blockerId, blockedId: strangerId, rouletteId, createdAt: now })
    .onConflictDoNothing()
    .returning({ createdAt: rouletteBlocks.createdAt })
    .get();
  ctx.roulette.keepApart(blockerId, strangerId);
  // Only the pairing named: ending another one with the same person would tell the blocker so.
  // The stranger hears roulette_partner_disconnected, the very frame Stop sends (and the contract's
  // answer to a block ending a pair).
  if (ctx.roulette.sessionOf(blockerId)?.id === rouletteId) leaveRoulette(ctx, blockerId, "roulette_partner_disconnected");
  if (inserted) return { created: true, createdAt: inserted.createdAt };
  const earlier = ctx.db
    .select({ createdAt: rouletteBlocks.createdAt })
    .from(rouletteBlocks)
    .where(and(eq(rouletteBlocks.blockerId, blockerId), eq(rouletteBlocks.rouletteId, rouletteId)))
    .get();
  return { created: false, createdAt: earlier?.createdAt ?? now };
}

/** How many pairings the user blocked: it changes only when they block one. */
export function strangerCount(ctx: AppContext, blockerId: number): number {
  return ctx.db.select({ n: count() }).from(rouletteBlocks).where(eq(rouletteBlocks.blockerId, blockerId)).get()?.n ?? 0;
}

/** At start-up: every blocked stranger stays apart from their blocker in roulette. */
export function loadStrangerBlocks(ctx: AppContext): void {
  const rows = ctx.db.selectDistinct({ a: rouletteBlocks.blockerId, b: rouletteBlocks.blockedId }).from(rouletteBlocks).all();
  for (const row of rows) ctx.roulette.keepApart(row.a, row.b);
}

/**
 * Whether the roulette queue may pair `a` and `b`: no block between them, and neither carries
 * (registry.ts) an account the other was kept apart from by a report or a stranger block, so a
 * new account from the same browser is not paired again either.
 */
export function mayMeetInRoulette(ctx: Pick<AppContext, "blocks" | "roulette">, a: number, b: number): boolean {
  if (ctx.blocks.between(a, b)) return false;
  for (const carrier of ctx.blocks.carriersOf(a)) if (ctx.roulette.keptApart(carrier, b)) return false;
  for (const carrier of ctx.blocks.carriersOf(b)) if (ctx.roulette.keptApart(a, carrier)) return false;
  return true;
}
