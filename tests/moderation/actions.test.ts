// Each action's effect in the database and its one audit row; who may do what.
import { transaction } from "../../src/storage/index.ts";
import { afterAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { bans, users, warnings } from "../../src/storage/tables.ts";
import {
  banUser,
  dismissReports,
  endSessions,
  liftRouletteSuspension,
  setRole,
  suspendRoulette,
  unbanUser,
  warnUser,
} from "../../src/moderation/actions.ts";
import { makeTestApp, registerUser } from "../support/app.ts";
import { auditOf, cli, fileReport, reportRow, staff, userRow } from "../support/moderation.ts";

const t = makeTestApp();
afterAll(() => t.close());

describe("every action", () => {
  test("a warning is stored, its reports are closed as actioned and one audit row says who, whom, why and which reports", async () => {
    const mod = await staff(t, "moderator");
    const reporter = await registerUser(t);
    const target = await registerUser(t);
    const report = await fileReport(t, reporter.user.id, target.user.id);
    const before = Date.now();
    const warning = await warnUser(t.ctx, mod.actor, target.user.id, "  Please be civil  ", [report.id]);
    expect(warning).toMatchObject({ userId: target.user.id, reason: "Please be civil", createdBy: mod.user.id, acknowledgedAt: null });
    expect(await reportRow(t, report.id)).toMatchObject({ status: "actioned", closedBy: mod.user.id });
    expect((await reportRow(t, report.id))!.firstActionAt).toBeGreaterThanOrEqual(before);
    const [row, ...others] = await auditOf(t, target.user.id);
    expect(others).toHaveLength(0);
    expect(row).toMatchObject({ actorId: mod.user.id, action: "warn", reason: "Please be civil", reportIds: JSON.stringify([report.id]) });
    expect(JSON.parse(row!.detail!)).toEqual({ warning_id: warning.id });
  });

  test("a reason is required and at most 1000 characters", async () => {
    const mod = await staff(t, "moderator");
    const target = await registerUser(t);
    for (const reason of ["", "   ", "x".repeat(1001)]) {
      await expect(warnUser(t.ctx, mod.actor, target.user.id, reason)).rejects.toThrow(expect.objectContaining({ status: 400, code: "validation" }));
    }
    expect((await warnUser(t.ctx, mod.actor, target.user.id, "x".repeat(1000))).reason).toHaveLength(1000);
  });

  test("an unknown user is a 404 and a report about someone else a 400, and neither writes anything", async () => {
    const mod = await staff(t, "moderator");
    const target = await registerUser(t);
    const bystander = await registerUser(t);
    const report = await fileReport(t, target.user.id, bystander.user.id);
    await expect(warnUser(t.ctx, mod.actor, 987654, "Rude")).rejects.toThrow(expect.objectContaining({ status: 404 }));
    await expect(warnUser(t.ctx, mod.actor, target.user.id, "Rude", [report.id])).rejects.toThrow(expect.objectContaining({ status: 400 }));
    await expect(warnUser(t.ctx, mod.actor, target.user.id, "Rude", [999999])).rejects.toThrow(expect.objectContaining({ status: 404 }));
    expect(await t.ctx.db.select().from(warnings).where(eq(warnings.userId, target.user.id))).toHaveLength(0);
    expect((await reportRow(t, report.id))!.status).toBe("open");
  });

  test("an ordinary user, or a moderator acting on themselves, another moderator or an admin, is refused with 403", async () => {
    const plain = await registerUser(t);
    const mod = await staff(t, "moderator");
    const otherMod = await staff(t, "moderator");
    const admin = await staff(t, "admin");
    const target = await registerUser(t);
    await expect(warnUser(t.ctx, { id: plain.user.id, role: "moderator" }, target.user.id, "Rude")).rejects.toThrow(expect.objectContaining({ status: 403 }));
    for (const victim of [mod, otherMod, admin]) {
      await expect(warnUser(t.ctx, mod.actor, victim.user.id, "Rude")).rejects.toThrow(expect.objectContaining({ status: 403 }));
    }
    await expect(banUser(t.ctx, admin.actor, admin.user.id, { days: 1, reason: "x", banAddress: false })).rejects.toThrow(expect.objectContaining({ status: 403 }));
  });

  test("a moderator cannot grant roles; an admin can, and the command line can make an admin", async () => {
    const mod = await staff(t, "moderator");
    const admin = await staff(t, "admin");
    const target = await registerUser(t);
    await expect(setRole(t.ctx, mod.actor, target.user.id, "moderator")).rejects.toThrow(expect.objectContaining({ status: 403, code: "forbidden" }));
    expect((await userRow(t, target.user.id))!.role).toBe("user");
    await setRole(t.ctx, admin.actor, target.user.id, "moderator");
    expect((await userRow(t, target.user.id))!.role).toBe("moderator");
    expect((await auditOf(t, target.user.id)).at(-1)).toMatchObject({ actorId: admin.user.id, action: "grant_role", detail: JSON.stringify({ from: "user", to: "moderator" }) });
    await setRole(t.ctx, cli, target.user.id, "admin");
    await expect(setRole(t.ctx, admin.actor, target.user.id, "user")).rejects.toThrow(expect.objectContaining({ status: 403 }));
    await setRole(t.ctx, cli, target.user.id, "user");
    expect((await auditOf(t, target.user.id)).at(-1)).toMatchObject({ actorId: null, action: "revoke_role" });
  });

  test("a guest cannot be made a moderator", async () => {
    const guest = await t.call("POST", "/api/guest/create", { json: { gender: "male", adult: true } });
    await expect(setRole(t.ctx, cli, guest.body.data.user.id, "moderator")).rejects.toThrow(expect.objectContaining({ status: 400 }));
  });

  test("a ban is recorded with its end, mirrored on the user, and lifted by unban with one audit row each", async () => {
    const mod = await staff(t, "moderator");
    const target = await registerUser(t);
    const before = Date.now();
    const ban = await banUser(t.ctx, mod.actor, target.user.id, { days: 7, reason: "Spam links", banAddress: false });
    expect(ban.until! - before).toBeGreaterThanOrEqual(7 * 86_400_000);
    expect(ban.until! - before).toBeLessThan(7 * 86_400_000 + 5000);
    expect(await userRow(t, target.user.id)).toMatchObject({ banned: true, bannedUntil: ban.until });
    expect((await auditOf(t, target.user.id)).at(-1)).toMatchObject({ action: "ban", reason: "Spam links" });
    expect(JSON.parse((await auditOf(t, target.user.id)).at(-1)!.detail!)).toMatchObject({ ban_id: ban.id, days: 7, address_banned: false });
    await expect(banUser(t.ctx, mod.actor, target.user.id, { days: 3 as 1, reason: "x", banAddress: false })).rejects.toThrow(expect.objectContaining({ status: 400 }));
    await unbanUser(t.ctx, mod.actor, target.user.id, "Appeal upheld on review");
    expect(await userRow(t, target.user.id)).toMatchObject({ banned: false, bannedUntil: null });
    expect((await t.ctx.db.select().from(bans).where(eq(bans.id, ban.id)).limit(1))[0]).toMatchObject({ liftedBy: mod.user.id, liftReason: "Appeal upheld on review" });
    expect((await auditOf(t, target.user.id)).at(-1)).toMatchObject({ action: "unban", reason: "Appeal upheld on review" });
    await expect(unbanUser(t.ctx, mod.actor, target.user.id, "again")).rejects.toThrow(expect.objectContaining({ status: 404 }));
  });

  test("a new ban replaces the one in force", async () => {
    const mod = await staff(t, "moderator");
    const target = await registerUser(t);
    const first = await banUser(t.ctx, mod.actor, target.user.id, { days: 1, reason: "Spam", banAddress: false });
    const second = await banUser(t.ctx, mod.actor, target.user.id, { days: null, reason: "Spam again", banAddress: false });
    expect((await t.ctx.db.select().from(bans).where(eq(bans.id, first.id)).limit(1))[0]!.liftedAt).not.toBeNull();
    expect(await userRow(t, target.user.id)).toMatchObject({ banned: true, bannedUntil: null });
    expect(JSON.parse((await auditOf(t, target.user.id)).at(-1)!.detail!)).toMatchObject({ ban_id: second.id, replaced_ban_id: first.id });
  });

  test("dismissing closes the reports as dismissed; reports about two people at once are refused", async () => {
    const mod = await staff(t, "moderator");
    const reporter = await registerUser(t);
    const a = await registerUser(t);
    const b = await registerUser(t);
    const r1 = await fileReport(t, reporter.user.id, a.user.id);
    const r2 = await fileReport(t, reporter.user.id, a.user.id);
    const r3 = await fileReport(t, reporter.user.id, b.user.id);
    await expect(dismissReports(t.ctx, mod.actor, [r1.id, r3.id], "Not a violation")).rejects.toThrow(expect.objectContaining({ status: 400 }));
    await expect(dismissReports(t.ctx, mod.actor, [], "Not a violation")).rejects.toThrow(expect.objectContaining({ status: 400 }));
    await dismissReports(t.ctx, mod.actor, [r1.id, r2.id], "Not a violation");
    expect(await reportRow(t, r1.id)).toMatchObject({ status: "dismissed", closedBy: mod.user.id });
    expect((await reportRow(t, r2.id))!.status).toBe("dismissed");
    expect((await reportRow(t, r3.id))!.status).toBe("open");
    expect((await auditOf(t, a.user.id)).at(-1)).toMatchObject({ action: "dismiss", reportIds: JSON.stringify([r1.id, r2.id]), reason: "Not a violation" });
  });

  test("a roulette suspension sets its end and reason and replaces the automatic one; lifting clears all three", async () => {
    const mod = await staff(t, "moderator");
    const target = await registerUser(t);
    await transaction(t.ctx.db, (tx) => tx.update(users).set({ rouletteSuspendedAt: 1 }).where(eq(users.id, target.user.id)));
    await suspendRoulette(t.ctx, mod.actor, target.user.id, { hours: 24, reason: "Nudity on camera" });
    const row = (await userRow(t, target.user.id))!;
    expect(row.rouletteSuspendedAt).toBeGreaterThan(1);
    expect(row.rouletteSuspendedUntil! - row.rouletteSuspendedAt!).toBe(24 * 3_600_000);
    expect(row.rouletteSuspensionReason).toBe("Nudity on camera");
    expect((await auditOf(t, target.user.id)).at(-1)).toMatchObject({ action: "suspend_roulette", reason: "Nudity on camera" });
    await expect(suspendRoulette(t.ctx, mod.actor, target.user.id, { hours: 0, reason: "x" })).rejects.toThrow(expect.objectContaining({ status: 400 }));
    await liftRouletteSuspension(t.ctx, mod.actor, target.user.id, "Served");
    expect(await userRow(t, target.user.id)).toMatchObject({ rouletteSuspendedAt: null, rouletteSuspendedUntil: null, rouletteSuspensionReason: null });
    expect((await auditOf(t, target.user.id)).at(-1)).toMatchObject({ action: "lift_suspension", reason: "Served" });
    await expect(liftRouletteSuspension(t.ctx, mod.actor, target.user.id, "again")).rejects.toThrow(expect.objectContaining({ status: 400 }));
  });

  test("ending sessions revokes every token of the user and writes an audit row", async () => {
    const mod = await staff(t, "moderator");
    const target = await registerUser(t);
    await endSessions(t.ctx, mod.actor, target.user.id, "Account looks hijacked");
    expect((await t.call("GET", "/api/auth/me", { token: target.token })).status).toBe(401);
    expect((await auditOf(t, target.user.id)).at(-1)).toMatchObject({ action: "end_sessions", detail: JSON.stringify({ sessions: 1 }) });
  });

  test("a demoted moderator's actor is refused", async () => {
    const mod = await staff(t, "moderator");
    const target = await registerUser(t);
    await setRole(t.ctx, cli, mod.user.id, "user");
    await expect(warnUser(t.ctx, mod.actor, target.user.id, "Rude")).rejects.toThrow(expect.objectContaining({ status: 403 }));
  });
});
