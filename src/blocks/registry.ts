// Who blocked whom, held in memory: the check sits on the message hot path, so it must never be
// a query per message. Loaded once at start-up (`load`, awaited before the app takes a request:
// loadContext in context.ts); every change goes through `add`/`remove`, which write the row and
// update the maps together. The checks answer from memory and stay synchronous.
//
// A block follows the blocked person's browser (issue 18, item 5): an account made from a device
// that earlier accounts used "carries" them (devices.ts), and whoever blocked a carried account
// is kept apart from the new one too. Carried blocks are never stored as blocks: they are read
// through the carriers, so unblocking the earlier account lifts them at once, and the blocker's
// list never shows them.
import { and, eq } from "drizzle-orm";
import { blocks, deviceCarriers } from "../storage/tables.ts";
import { transaction, type Db } from "../storage/index.ts";
import type { Bus } from "../cluster/ports.ts";

export class BlockRegistry {
  /** blocker → the people they blocked. */
  private byBlocker = new Map<number, Set<number>>();
  /** blocked → the people who blocked them. */
  private byBlocked = new Map<number, Set<number>>();
  /** account → the earlier accounts of the browser it was made from (at most MAX_CARRIERS). */
  private carriers = new Map<number, readonly number[]>();
  /** earlier account → the accounts made from its browsers since. */
  private carried = new Map<number, Set<number>>();
  /** Several instances: every change is published, and the request waits until all applied it. */
  private bus: Bus | null = null;

  constructor(private readonly db: Db) {}

  /**
   * Reads every block and carried account into memory: at start-up, and again when this instance
   * may have missed a change from another (its bus subscription came back). The new copy replaces
   * the old one whole, so an unblock missed meanwhile is not kept.
   */
  async load(): Promise<void> {
    // Changes made while the tables are read may be missing from what is read: done again after.
    const during: (() => void)[] = [];
    this.during = during;
    let blockRows, linkRows;
    try {
      [blockRows, linkRows] = [await this.db.select({ a: blocks.blockerId, b: blocks.blockedId }).from(blocks), await this.db.select().from(deviceCarriers)];
    } finally {
      if (this.during === during) this.during = null;
    }
    this.byBlocker = new Map();
    this.byBlocked = new Map();
    this.carriers = new Map();
    this.carried = new Map();
    for (const row of blockRows) this.remember(row.a, row.b);
    const links = new Map<number, number[]>();
    for (const row of linkRows) {
      const list = links.get(row.userId) ?? [];
      links.set(row.userId, list);
      list.push(row.carrierId);
    }
    for (const [userId, list] of links) this.linkInMemory(userId, list);
    for (const change of during) change();
  }

  /** The changes made while load() reads the tables, to apply again on top of what it read. */
  private during: (() => void)[] | null = null;

  /**
   * Several instances (src/cluster/): a block, unblock or carried account made through any
   * instance reaches every instance's copy over the bus, and `add`/`remove`/`link` resolve only
   * once every instance applied it (or after APPLIED_BOUND_MS; docs/DECISIONS.md "Shared state").
   */
  share(bus: Bus): void {
    this.bus = bus;
    bus.subscribe("blocks.add", (data) => {
      const [a, b] = data as [number, number];
      this.remember(a, b);
    });
    bus.subscribe("blocks.remove", (data) => {
      const [a, b] = data as [number, number];
      this.forget(a, b);
    });
    bus.subscribe("blocks.link", (data) => {
      const [userId, carrierIds] = data as [number, number[]];
      this.linkInMemory(userId, carrierIds);
    });
    bus.onResync(() => void this.load().catch(() => {}));
  }

  /** Tells the other instances and waits until they applied it (nothing to wait for in one process). */
  private async told(topic: string, data: unknown): Promise<void> {
    if (this.bus) await this.bus.publishApplied(topic, data);
  }

  /** Either direction: a block by one keeps both apart. */
  between(a: number, b: number): boolean {
    return this.hasBlocked(a, b) || this.hasBlocked(b, a);
  }

  /** `blockerId` blocked `blockedId` by name, or an earlier account that `blockedId` carries. */
  hasBlocked(blockerId: number, blockedId: number): boolean {
    const mine = this.byBlocker.get(blockerId);
    if (!mine) return false;
    if (mine.has(blockedId)) return true;
    const carriers = this.carriers.get(blockedId);
    if (!carriers) return false;
    for (const carrier of carriers) if (mine.has(carrier)) return true;
    return false;
  }

  /** Someone blocked `userId` by name. */
  isBlocked(userId: number): boolean {
    return (this.byBlocked.get(userId)?.size ?? 0) > 0;
  }

  /** A block by name, as stored (what the blocker can see and undo). */
  hasBlockedByName(blockerId: number, blockedId: number): boolean {
    return this.byBlocker.get(blockerId)?.has(blockedId) ?? false;
  }

  /** Everyone kept apart from `userId`, in either direction (for lists and presence). */
  hiddenFrom(userId: number): ReadonlySet<number> {
    const mine = this.byBlocker.get(userId);
    const theirs = this.byBlocked.get(userId);
    const carriers = this.carriers.get(userId);
    let carriedByMine = false;
    if (mine) for (const id of mine) if (this.carried.has(id)) carriedByMine = true;
    // Most users block nobody and carry nobody: no new set for them.
    if (!carriers && !carriedByMine) {
      if (!mine) return theirs ?? EMPTY;
      if (!theirs) return mine;
    }
    const all = new Set<number>(theirs);
    if (mine) {
      for (const id of mine) {
        all.add(id);
        for (const made of this.carried.get(id) ?? EMPTY) all.add(made);
      }
    }
    for (const carrier of carriers ?? []) for (const blocker of this.byBlocked.get(carrier) ?? EMPTY) all.add(blocker);
    return all;
  }

  /** The earlier accounts `userId` carries (empty for most). */
  carriersOf(userId: number): readonly number[] {
    return this.carriers.get(userId) ?? NONE;
  }

  /** The accounts made since from `userId`'s browsers. */
  carriedBy(userId: number): ReadonlySet<number> {
    return this.carried.get(userId) ?? EMPTY;
  }

  /** Records that `userId` carries `carrierIds` (a new account; devices.ts decides who). */
  async link(userId: number, carrierIds: readonly number[]): Promise<void> {
    if (carrierIds.length === 0) return;
    await transaction(this.db, (tx) => tx.insert(deviceCarriers).values(carrierIds.map((carrierId) => ({ userId, carrierId }))).onConflictDoNothing());
    this.linkInMemory(userId, carrierIds);
    await this.told("blocks.link", [userId, carrierIds]);
  }

  /**
   * Stores the block; false when it already existed. The maps change before the write is awaited,
   * so a second request for the same block meanwhile answers false (and the block holds at once);
   * a failed write takes it back out.
   */
  async add(blockerId: number, blockedId: number, at: number): Promise<boolean> {
    if (this.hasBlockedByName(blockerId, blockedId)) return false;
    this.remember(blockerId, blockedId);
    try {
      await transaction(this.db, (tx) => tx.insert(blocks).values({ blockerId, blockedId, createdAt: at }).onConflictDoNothing());
    } catch (error) {
      this.forget(blockerId, blockedId);
      throw error;
    }
    await this.told("blocks.add", [blockerId, blockedId]);
    return true;
  }

  /** Removes the block; false when there was none. As `add`, the maps change first (put back if the write fails). */
  async remove(blockerId: number, blockedId: number): Promise<boolean> {
    if (!this.hasBlockedByName(blockerId, blockedId)) return false;
    this.forget(blockerId, blockedId);
    try {
      await transaction(this.db, (tx) => tx.delete(blocks).where(and(eq(blocks.blockerId, blockerId), eq(blocks.blockedId, blockedId))));
    } catch (error) {
      this.remember(blockerId, blockedId);
      throw error;
    }
    await this.told("blocks.remove", [blockerId, blockedId]);
    return true;
  }

  private linkInMemory(userId: number, carrierIds: readonly number[]): void {
    this.during?.push(() => this.linkInMemory(userId, carrierIds));
    const merged = [...new Set([...(this.carriers.get(userId) ?? []), ...carrierIds])].filter((id) => id !== userId);
    this.carriers.set(userId, merged);
    for (const carrier of merged) {
      let made = this.carried.get(carrier);
      if (!made) this.carried.set(carrier, (made = new Set()));
      made.add(userId);
    }
  }

  private forget(a: number, b: number): void {
    this.during?.push(() => this.forget(a, b));
    this.byBlocker.get(a)?.delete(b);
    this.byBlocked.get(b)?.delete(a);
  }

  private remember(a: number, b: number): void {
    this.during?.push(() => this.remember(a, b));
    let mine = this.byBlocker.get(a);
    if (!mine) this.byBlocker.set(a, (mine = new Set()));
    mine.add(b);
    let theirs = this.byBlocked.get(b);
    if (!theirs) this.byBlocked.set(b, (theirs = new Set()));
    theirs.add(a);
  }
}

const EMPTY: ReadonlySet<number> = new Set();
const NONE: readonly number[] = Object.freeze([]);
