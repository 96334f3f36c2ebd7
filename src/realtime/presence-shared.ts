// Several instances (issue 23): every instance's copy of who is shown online to strangers
// (public-presence.ts, `hub.isShown`) starts from the users rows, which each instance's batches
// write, and is read again whenever changes from the others may have been lost (the bus's
// resync). In between, the batches published anywhere reach it over the bus (hub.ts).
import { eq } from "drizzle-orm";
import type { AppContext } from "../context.ts";
import { logFailure } from "../storage/unavailable.ts";
import { users } from "../storage/tables.ts";

const wired = new WeakSet<AppContext>();

/** Reads the copy whole (start-up, awaited by loadContext); after a lost subscription, again. One process: nothing. */
export async function loadShownPresence(ctx: Pick<AppContext, "db" | "hub" | "ports" | "log">): Promise<void> {
  if (ctx.ports.kind === "local") return;
  const read = async () => (await ctx.db.select({ id: users.id }).from(users).where(eq(users.isOnline, true))).map((row) => row.id);
  if (!wired.has(ctx as AppContext)) {
    wired.add(ctx as AppContext);
    ctx.ports.bus.onResync(() => {
      ctx.hub.loadShown(read).catch((error: unknown) => logFailure(ctx.log, "shown presence not read again", error));
    });
  }
  await ctx.hub.loadShown(read);
}
