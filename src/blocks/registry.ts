// Who blocked whom, held in memory: the check sits on the message hot path, so it must never be
// a query per message. Loaded once at start-up; every change goes through `add`/`remove`, which
// write the row and update the maps together.
import { and, eq } from "drizzle-orm";
import { blocks } from "../../db/schema.ts";
import type { Db } from "../db.ts";

export class BlockRegistry {
  /** blocker → the people they blocked. */
  private readonly byBlocker = new Map<number, Set<number>>();
  /** blocked → the people who blocked them. */
  private readonly byBlocked = new Map<number, Set<number>>();

  constructor(private readonly db: Db) {
    for (const row of db.select({ a: blocks.blockerId, b: blocks.blockedId }).from(blocks).all()) this.remember(row.a, row.b);
  }

  /** Either direction: a block by one keeps both apart. */
  between(a: number, b: number): boolean {
    return (this.byBlocker.get(a)?.has(b) ?? false) || (this.byBlocked.get(a)?.has(b) ?? false);
  }

  hasBlocked(blockerId: number, blockedId: number): boolean {
    return this.byBlocker.get(blockerId)?.has(blockedId) ?? false;
  }

  /** Everyone kept apart from `userId`, in either direction (for lists and presence). */
  hiddenFrom(userId: number): ReadonlySet<number> {
    const mine = this.byBlocker.get(userId);
    const theirs = this.byBlocked.get(userId);
    if (!mine) return theirs ?? EMPTY;
    if (!theirs) return mine;
    return new Set([...mine, ...theirs]);
  }

  /** Stores the block; false when it already existed. */
  add(blockerId: number, blockedId: number, at: number, anonymous = false): boolean {
    if (this.hasBlocked(blockerId, blockedId)) return false;
    this.db.insert(blocks).values({ blockerId, blockedId, anonymous, createdAt: at }).onConflictDoNothing().run();
    this.remember(blockerId, blockedId);
    return true;
  }

  /** Removes the block; false when there was none. */
  remove(blockerId: number, blockedId: number): boolean {
    if (!this.hasBlocked(blockerId, blockedId)) return false;
    this.db.delete(blocks).where(and(eq(blocks.blockerId, blockerId), eq(blocks.blockedId, blockedId))).run();
    this.byBlocker.get(blockerId)?.delete(blockedId);
    this.byBlocked.get(blockedId)?.delete(blockerId);
    return true;
  }

  private remember(a: number, b: number): void {
    let mine = this.byBlocker.get(a);
    if (!mine) this.byBlocker.set(a, (mine = new Set()));
    mine.add(b);
    let theirs = this.byBlocked.get(b);
    if (!theirs) this.byBlocked.set(b, (theirs = new Set()));
    theirs.add(a);
  }
}

const EMPTY: ReadonlySet<number> = new Set();
