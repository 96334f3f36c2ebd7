// A moderator's roulette suspension: it ends a running pair, roulette_search answers `suspended`
// with the reason while it runs, and lets the user in again once it is over or lifted.
import { transaction } from "../../src/storage/index.ts";
import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { users } from "../../src/storage/tables.ts";
import { liftRouletteSuspension, suspendRoulette } from "../../src/moderation/actions.ts";
import { connectedUser, listeningApp, type ConnectedUser } from "../support/listening.ts";
import { staff } from "../support/moderation.ts";
import { forgetUser } from "../../src/users/cache.ts";
import { rouletteSearch } from "../support/roulette.ts";
import { until } from "../support/until.ts";

const t = listeningApp();

describe("suspension from roulette", () => {
  test("ends the running pair and refuses the next search with `suspended`, naming the reason", async () => {
    const mod = await staff(t, "moderator");
    const a = await connectedUser(t);
    const b = await connectedUser(t);
    await rouletteSearch(a.s, a.user.id);
    await rouletteSearch(b.s, b.user.id);
    await a.s.next("roulette_partner_found");
    await suspendRoulette(t.ctx, mod.actor, b.user.id, { hours: 2, reason: "Nudity on camera" });
    await a.s.next("roulette_partner_disconnected");
    const refused = await rouletteSearch(b.s, b.user.id);
    expect(refused.error?.code).toBe("suspended");
    expect(refused.error?.message).toContain("Nudity on camera");
    expect((await rouletteSearch(a.s, a.user.id)).data).toEqual({ status: "searching" });
    await a.s.ask("roulette_stop_search", { userId: a.user.id });
  });

  test("lets the user in after its end", async () => {
    const mod = await staff(t, "moderator");
    const p = await connectedUser(t);
    await suspendRoulette(t.ctx, mod.actor, p.user.id, { hours: 1, reason: "Rude" });
    expect((await rouletteSearch(p.s, p.user.id)).error?.code).toBe("suspended");
    await transaction(t.ctx.db, (tx) => tx.update(users).set({ rouletteSuspendedUntil: Date.now() - 1 }).where(eq(users.id, p.user.id)));
    // A write outside src/ tells the users cache, as every users write in src/ does (users/cache.ts).
    forgetUser(t.ctx.db, p.user.id);
    expect((await rouletteSearch(p.s, p.user.id)).data).toEqual({ status: "searching" });
    // The search clears the ended suspension without waiting for it (handlers/roulette.ts), and
    // no frame tells of the write: on PostgreSQL it commits after the answer.
    const suspendedAt = async () => (await t.ctx.db.select({ at: users.rouletteSuspendedAt }).from(users).where(eq(users.id, p.user.id)))[0]!.at;
    await until(async () => (await suspendedAt()) === null, "the ended suspension being cleared");
    expect(await suspendedAt()).toBeNull();
    await p.s.ask("roulette_stop_search", { userId: p.user.id });
  });

  test("until lifted: refused until a moderator lifts it, then searching again", async () => {
    const mod = await staff(t, "moderator");
    const p = await connectedUser(t);
    await suspendRoulette(t.ctx, mod.actor, p.user.id, { hours: null, reason: "Repeated reports" });
    expect((await rouletteSearch(p.s, p.user.id)).error?.code).toBe("suspended");
    await liftRouletteSuspension(t.ctx, mod.actor, p.user.id, "Reviewed the reports");
    expect((await rouletteSearch(p.s, p.user.id)).data).toEqual({ status: "searching" });
    await p.s.ask("roulette_stop_search", { userId: p.user.id });
  });
});
