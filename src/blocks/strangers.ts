// Blocking a Video Roulette stranger by pairing id (issue 18, item 1). Such a block must reveal
// nothing to either side, so it shares nothing with named blocks: its own table, never read by
// named block or unblock, lists, presence or the message gate. Its one effect is that the two are
// never paired again (the queue's keep-apart set, as after a report); when it names the running
// pairing, that pairing ends exactly as if the blocker pressed Stop.
import { and, count, eq } from "drizzle-orm";
import { rouletteBlocks } from "../storage/tables.ts";
import type { AppContext } from "../context.ts";
import { transaction } from "../storage/index.ts";
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
export async function blockStranger(ctx: AppContext, blockerId: number, rouletteId: string): Promise<StrangerBlock> {
  const strangerId = ctx.roulette.strangerOf(rouletteId, blockerId);
  if (strangerId === undefined) throw notFound("That Video Roulette session is over or unknown");
  const now = Date.now();
  // Kept apart before the write is awaited, so no search meanwhile pairs the two again.
  keepApartEverywhere(ctx, blockerId, strangerId);
  const [inserted] = await transaction(ctx.db, (tx) => tx
    .insert(rouletteBlocks)
    .values({ blockerId, blockedId: strangerId, rouletteId, createdAt: now })
    .onConflictDoNothing()
    .returning({ createdAt: rouletteBlocks.createdAt }));
  // Only the pairing named: ending another one with the same person would tell the blocker so.
  // The stranger hears roulette_partner_disconnected, the very frame Stop sends (and the contract's
  // answer to a block ending a pair).
  if (ctx.roulette.sessionOf(blockerId)?.id === rouletteId) leaveRoulette(ctx, blockerId, "roulette_partner_disconnected");
  if (inserted) return { created: true, createdAt: inserted.createdAt };
  const [earlier] = await ctx.db
    .select({ createdAt: rouletteBlocks.createdAt })
    .from(rouletteBlocks)
    .where(and(eq(rouletteBlocks.blockerId, blockerId), eq(rouletteBlocks.rouletteId, rouletteId)))
    .limit(1);
  return { created: false, createdAt: earlier?.createdAt ?? now };
}

/** How many pairings the user blocked: it changes only when they block one. */
export async function strangerCount(ctx: AppContext, blockerId: number): Promise<number> {
  return (await ctx.db.select({ n: count() }).from(rouletteBlocks).where(eq(rouletteBlocks.blockerId, blockerId)))[0]?.n ?? 0;
}

/** At start-up (loadContext in context.ts): every blocked stranger stays apart from their blocker in roulette. */
export async function loadStrangerBlocks(ctx: Pick<AppContext, "db" | "roulette">): Promise<void> {
  const rows = await ctx.db.selectDistinct({ a: rouletteBlocks.blockerId, b: rouletteBlocks.blockedId }).from(rouletteBlocks);
  for (const row of rows) ctx.roulette.keepApart(row.a, row.b);
}

/**
 * Keeps two people from being paired again in roulette, on this instance at once and, with
 * several instances, on every other one over the bus (a search there may pair them otherwise).
 * The queue's keep-apart set only grows, so a copy that missed a change (its subscription came
 * back) reads the tables again (shareKeptApart) and nothing is undone.
 */
export function keepApartEverywhere(ctx: Pick<AppContext, "roulette" | "ports">, a: number, b: number): void {
  ctx.roulette.keepApart(a, b);
  if (ctx.ports.kind !== "local") ctx.ports.bus.publish(KEEP_APART, [a, b]);
}

const KEEP_APART = "roulette.keep_apart";

/** Several instances: pairs kept apart on another instance (a report, a stranger blocked) are kept apart here too. */
export function shareKeptApart(ctx: Pick<AppContext, "db" | "roulette" | "ports">, reloadReported: () => Promise<void>): void {
  ctx.ports.bus.subscribe(KEEP_APART, (data) => {
    const [a, b] = data as [number, number];
    ctx.roulette.keepApart(a, b);
  });
  ctx.ports.bus.onResync(() => void Promise.all([loadStrangerBlocks(ctx), reloadReported()]).catch(() => {}));
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
