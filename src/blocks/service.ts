// Blocking by name: storing a block, listing one's blocks, and the effects that must reach open
// sockets at once: a call or roulette pair between the two ends, the blocker's tabs hear
// `block_changed`, and the blocked person sees the blocker go offline. Roulette strangers are
// blocked apart from all this (strangers.ts).
import { and, desc, eq } from "drizzle-orm";
import { blocks, users, type UserRow } from "../storage/tables.ts";
import { endCallAcrossBlock } from "../calls/endings.ts";
import type { AppContext } from "../context.ts";
import type { PublicUser } from "../realtime/protocol.ts";
import { leaveRoulette } from "../realtime/handlers/roulette.ts";
import { onlineAsSeenBy } from "../realtime/seen-by.ts";
import { iso } from "../time.ts";
import { findUser, toPublicUser } from "../users/service.ts";
import { strangerCount } from "./strangers.ts";

export interface BlockResult {
  /** False when the block already existed (answered 200 instead of 201). */
  created: boolean;
  createdAt: number;
}

export interface BlockedUser extends PublicUser {
  blocked_at: string;
}

const rowOf = async (ctx: AppContext, blockerId: number, blockedId: number) =>
  (
    await ctx.db
      .select()
      .from(blocks)
      .where(and(eq(blocks.blockerId, blockerId), eq(blocks.blockedId, blockedId)))
      .limit(1)
  )[0];

/** Stores a named block and applies it at once. */
export async function block(ctx: AppContext, blocker: UserRow, blockedId: number): Promise<BlockResult> {
  const now = Date.now();
  if (await ctx.blocks.add(blocker.id, blockedId, now)) {
    applyBlock(ctx, blocker, blockedId);
    return { created: true, createdAt: now };
  }
  return { created: false, createdAt: (await rowOf(ctx, blocker.id, blockedId))?.createdAt ?? now };
}

/** Removes a named block; false when there was none. Blocks of roulette strangers are not here (strangers.ts). */
export async function unblock(ctx: AppContext, blocker: UserRow, blockedId: number): Promise<boolean> {
  if (!(await ctx.blocks.remove(blocker.id, blockedId))) return false;
  ctx.hub.sendToUser(blocker.id, "block_changed", { userId: blockedId, blocked: false });
  // Presence is told again, unless a block the other way still keeps them apart.
  if (!ctx.blocks.between(blocker.id, blockedId)) {
    // As each may know it: a stranger only what the batched presence shows (issue 18).
    if (onlineAsSeenBy(ctx, blockedId, blocker.id)) ctx.hub.sendToUser(blockedId, "user_online", { userId: blocker.id, name: blocker.name });
    const other = onlineAsSeenBy(ctx, blocker.id, blockedId) ? await findUser(ctx.db, blockedId) : undefined;
    if (other) ctx.hub.sendToUser(blocker.id, "user_online", { userId: other.id, name: other.name });
  }
  return true;
}

function applyBlock(ctx: AppContext, blocker: UserRow, blockedId: number): void {
  // The blocked person and the accounts made from their browsers since (registry.ts).
  const apart = (id: number | undefined) => id !== undefined && ctx.blocks.between(blocker.id, id);
  endCallAcrossBlock(ctx, blocker.id, apart);
  if (apart(ctx.roulette.partnerOf(blocker.id))) leaveRoulette(ctx, blocker.id, "roulette_partner_disconnected");
  ctx.hub.sendToUser(blocker.id, "block_changed", { userId: blockedId, blocked: true });
  if (!ctx.hub.isOnline(blocker.id)) return;
  const gone = { userId: blocker.id, name: blocker.name };
  ctx.hub.sendToUser(blockedId, "user_offline", gone);
  for (const made of ctx.blocks.carriedBy(blockedId)) ctx.hub.sendToUser(made, "user_offline", gone);
}

/** The people `blockerId` blocked by name, newest first, and how many roulette strangers they blocked. */
export async function listBlocks(ctx: AppContext, blockerId: number): Promise<{ users: BlockedUser[]; strangers: number }> {
  const rows = await ctx.db
    .select({ user: users, createdAt: blocks.createdAt })
    .from(blocks)
    .innerJoin(users, eq(users.id, blocks.blockedId))
    .where(eq(blocks.blockerId, blockerId))
    .orderBy(desc(blocks.createdAt), desc(blocks.blockedId));
  return { users: rows.map(({ user, createdAt }) => ({ ...toPublicUser(user), blocked_at: iso(createdAt) })), strangers: await strangerCount(ctx, blockerId) };
}

export const blockView = (user: UserRow | null, createdAt: number) => ({
  block: { user: user ? toPublicUser(user) : null, created_at: iso(createdAt) },
});
