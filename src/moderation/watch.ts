// Bans made by another process (bun scripts/moderate.ts on the same DATA_DIR) reach this server's
// open sockets: every 2 s one query by primary key for bans newer than the last one seen. Bans
// made in this process were applied already; applying one again finds no socket and no session.
// A lift needs nothing here: every check reads the database.
import { asc, gt, sql } from "drizzle-orm";
import { bans } from "../../db/schema.ts";
import type { AppContext } from "../context.ts";
import { isRunning } from "./bans.ts";
import { expelBanned } from "./effects.ts";
import { errorFields } from "../observability/log.ts";
import { forgetUsersChangedElsewhere } from "../users/cache.ts";

type Ctx = Pick<AppContext, "db" | "hub" | "config" | "log">;

export class BanWatcher {
  private lastSeen: number;

  constructor(private readonly ctx: Ctx) {
    this.lastSeen = ctx.db.select({ max: sql<number | null>`max(${bans.id})` }).from(bans).get()?.max ?? 0;
  }

  /** Applies bans newer than the last check; returns how many were applied. */
  check(now = Date.now()): number {
    // The same 2 s bound for any other users write made by that process (a role, a name).
    forgetUsersChangedElsewhere(this.ctx.db);
    const fresh = this.ctx.db.select().from(bans).where(gt(bans.id, this.lastSeen)).orderBy(asc(bans.id)).limit(500).all();
    let applied = 0;
    for (const ban of fresh) {
      this.lastSeen = ban.id;
      if (!isRunning(ban, now)) continue;
      expelBanned(this.ctx, ban);
      applied += 1;
    }
    return applied;
  }
}

export function watchBans(ctx: Ctx, everyMs = 2000): () => void {
  const watcher = new BanWatcher(ctx);
  const timer = setInterval(() => {
    try {
      watcher.check();
    } catch (error) {
      ctx.log.error("ban watcher failed", errorFields(error));
    }
  }, everyMs);
  timer.unref?.();
  return () => clearInterval(timer);
}
