// Blocking: storing a block (named, or anonymous from Video Roulette), listing one's blocks, and
// the effects that must reach open sockets at once: a call or roulette pair between the two ends,
// the blocker's tabs hear `block_changed`, and the blocked person sees the blocker go offline.
import { and, count, desc, eq } from "drizzle-orm";
import { blocks, users, type UserRow } from "../../db/schema.ts";
import { otherParty } from "../calls/registry.ts";
import type { AppContext } from "../context.ts";
import type { PublicUser } from "../realtime/protocol.ts";
import { leaveRoulette } from "../realtime/handlers/roulette.ts";
import { iso } from "../time.ts";
import { findUser, toPublicUser } from "../users/service.ts";

export interface BlockResult {
  /** False when the block already existed (answered 200 instead of 201). */
  created: boolean;
  createdAt: number;
}

export interface BlockedUser extends PublicUser {
  blocked_at: string;
}

const rowOf = (ctx: AppContext, blockerId: number, blockedId: number) =>
  ctx.db
    .select()
    .from(blocks)
    .where(and(eq(blocks.blockerId, blockerId), eq(blocks.blockedId, blockedId)))
    .get();

/**
 * Stores the block and applies it at once. A named block over an earlier anonymous one (the same
 * person met in roulette) becomes named and answers like a new block, so the answer never tells
 * the blocker that this was the stranger they blocked before.
 */
export function block(ctx: AppContext, blocker: UserRow, blockedId: number, anonymous: boolean): BlockResult {
  const now = Date.now();
  if (ctx.blocks.add(blocker.id, blockedId, now, anonymous)) {
    applyBlock(ctx, blocker, blockedId, anonymous);
    return { created: true, createdAt: now };
  }
  const existing = rowOf(ctx, blocker.id, blockedId);
  if (existing?.anonymous && !anonymous) {
    ctx.db
      .update(blocks)
      .set({ anonymous: false, createdAt: now })
      .where(and(eq(blocks.blockerId, blocker.id), eq(blocks.blockedId, blockedId)))
      .run();
    ctx.hub.sendToUser(blocker.id, "block_changed", { userId: blockedId, blocked: true });
    return { created: true, createdAt: now };
  }
  return { created: false, createdAt: existing?.createdAt ?? now };
}

/**
 * Removes a named block; false when there was none. Anonymous blocks stay: the blocker never
 * knew who it was, so they have nothing to undo it by.
 */
export function unblock(ctx: AppContext, blocker: UserRow, blockedId: number): boolean {
  const existing = rowOf(ctx, blocker.id, blockedId);
  if (!existing || existing.anonymous) return false;
  ctx.blocks.remove(blocker.id, blockedId);
  ctx.hub.sendToUser(blocker.id, "block_changed", { userId: blockedId, blocked: false });
  // Presence is told again, unless a block the other way still keeps them apart.
  if (!ctx.blocks.between(blocker.id, blockedId)) {
    if (ctx.hub.isOnline(blocker.id)) ctx.hub.sendToUser(blockedId, "user_online", { userId: blocker.id, name: blocker.name });
    const other = ctx.hub.isOnline(blockedId) ? findUser(ctx.db, blockedId) : undefined;
    if (other) ctx.hub.sendToUser(blocker.id, "user_online", { userId: other.id, name: other.name });
  }
  return true;
}

function applyBlock(ctx: AppContext, blocker: UserRow, blockedId: number, anonymous: boolean): void {
  const call = ctx.calls.of(blocker.id);
  if (call && otherParty(call, blocker.id) === blockedId) {
    ctx.calls.end(call);
    ctx.hub.sendToUser(blocker.id, "call_ended", {});
    ctx.hub.sendToUser(blockedId, "call_ended", {});
  }
  if (ctx.roulette.partnerOf(blocker.id) === blockedId) leaveRoulette(ctx, blocker.id, "roulette_partner_disconnected");
  // An anonymous block must not hand the stranger's user id to the blocker's tabs.
  if (!anonymous) ctx.hub.sendToUser(blocker.id, "block_changed", { userId: blockedId, blocked: true });
  if (ctx.hub.isOnline(blocker.id)) ctx.hub.sendToUser(blockedId, "user_offline", { userId: blocker.id, name: blocker.name });
}

/** The people `blockerId` blocked by name, newest first, and how many strangers they blocked. */
export function listBlocks(ctx: AppContext, blockerId: number): { users: BlockedUser[]; strangers: number } {
  const rows = ctx.db
    .select({ user: users, createdAt: blocks.createdAt })
    .from(blocks)
    .innerJoin(users, eq(users.id, blocks.blockedId))
    .where(and(eq(blocks.blockerId, blockerId), eq(blocks.anonymous, false)))
    .orderBy(desc(blocks.createdAt), desc(blocks.blockedId))
    .all();
  const strangers =
    ctx.db
      .select({ n: count() })
      .from(blocks)
      .where(and(eq(blocks.blockerId, blockerId), eq(blocks.anonymous, true)))
      .get()?.n ?? 0;
  return { users: rows.map(({ user, createdAt }) => ({ ...toPublicUser(user), blocked_at: iso(createdAt) })), strangers };
}

export const blockView = (user: UserRow | null, createdAt: number) => ({
  block: { user: user ? toPublicUser(user) : null, created_at: iso(createdAt) },
});
