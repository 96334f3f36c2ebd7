// Bans made by another process (bun scripts/moderate.ts on the same DATA_DIR) reach this server's
// open sockets: every 2 s one query by primary key for bans newer than the last one seen. Bans
// made in this process were applied already; applying one again finds no socket and no session.
// A lift needs nothing here: every check reads the database.
import { asc, gt, max } from "drizzle-orm";
import { bans } from "../storage/tables.ts";
import type { AppContext } from "../context.ts";
import { isRunning } from "./bans.ts";
import { expelBanned } from "./effects.ts";
import { logFailure } from "../storage/unavailable.ts";
import { forgetUsersChangedElsewhere } from "../users/cache.ts";

type Ctx = Pick<AppContext, "db" | "hub" | "config" | "log">;

export class BanWatcher {
  private constructor(
    private readonly ctx: Ctx,
    private lastSeen: number,
  ) {}

  /** A watcher that applies bans made from now on. */
  static async start(ctx: Ctx): Promise<BanWatcher> {
    const [newest] = await ctx.db.select({ id: max(bans.id) }).from(bans);
    return new BanWatcher(ctx, newest?.id ?? 0);
  }

  /** Applies bans newer than the last check; returns how many were applied. */
  async check(now = Date.now()): Promise<number> {
    // The same 2 s bound for any other users write made by that process (a role, a name).
    forgetUsersChangedElsewhere(this.ctx.db);
    const fresh = await this.ctx.db.select().from(bans).where(gt(bans.id, this.lastSeen)).orderBy(asc(bans.id)).limit(500);
    let applied = 0;
    for (const ban of fresh) {
      this.lastSeen = ban.id;
      if (!isRunning(ban, now)) continue;
      await expelBanned(this.ctx, ban);
      applied += 1;
    }
    return applied;
  }
}

/** Starts watching (after the newest ban is read); resolves to the stop function. */
export async function watchBans(ctx: Ctx, everyMs = 2000): Promise<() => void> {
  const watcher = await BanWatcher.start(ctx);
  // One check at a time: a slow one makes the next tick skip, never two apply the same bans.
  let checking = false;
  const timer = setInterval(() => {
    if (checking) return;
    checking = true;
    watcher
      .check()
      .catch((error: unknown) => logFailure(ctx.log, "ban watcher failed", error))
      .finally(() => {
        checking = false;
      });
  }, everyMs);
  timer.unref?.();
  return () => clearInterval(timer);
}
