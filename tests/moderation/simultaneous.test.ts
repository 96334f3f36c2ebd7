// The same action twice at the same moment (two moderators, a double click, two tabs) is done
// once: each checks the row, then writes only if the row is still as checked, so the second
// gets what it would get a moment later and exactly one audit row (or report) is written. On
// PostgreSQL the two requests really run at once; on SQLite their awaits interleave.
import { afterAll, describe, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { liftRouletteSuspension, removeAvatar, setRole, suspendRoulette } from "../../src/moderation/actions.ts";
import { reports } from "../../src/storage/tables.ts";
import { makeTestApp, registerUser } from "../support/app.ts";
import { auditOf, cli, staff, userRow } from "../support/moderation.ts";

const t = makeTestApp({ SIGNUP_RATE_LIMIT: "1000" });
afterAll(() => t.close());

/** The outcomes of two calls run at once: how many succeeded, and the statuses of those that threw. */
async function both(run: () => Promise<unknown>) {
  const settled = await Promise.allSettled([run(), run()]);
  return {
    done: settled.filter((s) => s.status === "fulfilled").length,
    refused: settled.flatMap((s) => (s.status === "rejected" ? [(s.reason as { status?: number }).status] : [])),
  };
}

describe("twice at once", () => {
  test("removing an avatar: one removal, one audit row, the other told there is none", async () => {
    const mod = await staff(t, "moderator");
    const target = await registerUser(t);
    await t.sql("UPDATE users SET avatar_path = ? WHERE id = ?", "avatars/simultaneous.png", target.user.id);
    expect(await both(() => removeAvatar(t.ctx, mod.actor, target.user.id, "Gore"))).toEqual({ done: 1, refused: [400] });
    expect((await auditOf(t, target.user.id)).filter((a) => a.action === "remove_avatar")).toHaveLength(1);
    expect((await userRow(t, target.user.id))!.avatarPath).toBeNull();
  });

  test("lifting a roulette suspension: one lifting, one audit row", async () => {
    const mod = await staff(t, "moderator");
    const target = await registerUser(t);
    await suspendRoulette(t.ctx, mod.actor, target.user.id, { hours: 2, reason: "Nudity on camera" });
    expect(await both(() => liftRouletteSuspension(t.ctx, mod.actor, target.user.id, "Appeal accepted"))).toEqual({ done: 1, refused: [400] });
    expect((await auditOf(t, target.user.id)).filter((a) => a.action === "lift_suspension")).toHaveLength(1);
    expect((await userRow(t, target.user.id))!.rouletteSuspendedAt).toBeNull();
  });

  test("granting a role: the role is set once and audited once", async () => {
    const target = await registerUser(t);
    // Both answer as a second grant would a moment later: done, nothing more to change.
    expect(await both(() => setRole(t.ctx, cli, target.user.id, "moderator"))).toEqual({ done: 2, refused: [] });
    const grants = (await auditOf(t, target.user.id)).filter((a) => a.action === "grant_role");
    expect(grants).toHaveLength(1);
    expect(JSON.parse(grants[0]!.detail!)).toEqual({ from: "user", to: "moderator" });
    expect((await userRow(t, target.user.id))!.role).toBe("moderator");
  });

  test("two different roles at once: both are applied one after the other, each audited from the role it replaced", async () => {
    const target = await registerUser(t);
    await Promise.all([setRole(t.ctx, cli, target.user.id, "moderator"), setRole(t.ctx, cli, target.user.id, "admin")]);
    const changes = (await auditOf(t, target.user.id)).filter((a) => a.action === "grant_role" || a.action === "revoke_role").map((a) => JSON.parse(a.detail!));
    expect(changes).toHaveLength(2);
    expect(changes[0].from).toBe("user");
    expect(changes[1].from).toBe(changes[0].to);
    expect((await userRow(t, target.user.id))!.role).toBe(changes[1].to);
  });

  test("a first report of one person by one reporter, sent twice at once, is one report", async () => {
    const me = await registerUser(t);
    const them = await registerUser(t);
    const file = (details: string) => t.call("POST", "/api/reports", { token: me.token, json: { reportedUserId: them.user.id, context: "profile", reason: "spam", details } });
    const answers = await Promise.all([file("sells followers"), file("and spams links")]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 201]);
    expect(answers[0]!.body.report.id).toBe(answers[1]!.body.report.id);
    const rows = await t.ctx.db.select().from(reports).where(and(eq(reports.reporterId, me.user.id), eq(reports.reportedId, them.user.id)));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.details.split("\n\n").sort()).toEqual(["and spams links", "sells followers"]);
  });
});
