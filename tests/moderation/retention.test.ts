// The retention sweep with a fake clock: closed reports lose their still, transcript and details
// REPORT_RETENTION_DAYS after closing; under-18 reports are kept until an admin deletes them;
// ended bans forget their address hash.
import { transaction } from "../../src/storage/index.ts";
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { bans, sessions } from "../../src/storage/tables.ts";
import { banUser, deleteReport, sweepRetention } from "../../src/moderation/actions.ts";
import { makeTestApp, registerUser } from "../support/app.ts";
import { auditOf, cli, fileReport, reportRow, staff } from "../support/moderation.ts";

const t = makeTestApp({ REPORT_RETENTION_DAYS: "90" });
afterAll(() => t.close());
const DAY = 86_400_000;

function still(): string {
  const relPath = `evidence/${crypto.randomUUID().replaceAll("-", "")}.jpg`;
  mkdirSync(join(t.dataDir, "evidence"), { recursive: true });
  writeFileSync(join(t.dataDir, relPath), "jpeg bytes");
  return relPath;
}

describe("the retention sweep", () => {
  test("purges closed reports past the retention time, keeps newer, open and under-18 ones", async () => {
    const reporter = await registerUser(t);
    const reported = await registerUser(t);
    const now = Date.UTC(2027, 0, 1);
    const oldStill = still();
    const old = await fileReport(t, reporter.user.id, reported.user.id, { evidencePath: oldStill, closedAt: now - 91 * DAY });
    const recent = await fileReport(t, reporter.user.id, reported.user.id, { evidencePath: still(), closedAt: now - 89 * DAY });
    const open = await fileReport(t, reporter.user.id, reported.user.id, { evidencePath: still() });
    const underageStill = still();
    const underage = await fileReport(t, reporter.user.id, reported.user.id, { reason: "underage", evidencePath: underageStill, closedAt: now - 400 * DAY });

    expect(await sweepRetention(t.ctx, now)).toBe(1);
    expect(await reportRow(t, old.id)).toMatchObject({ transcript: null, evidencePath: null, details: "", purgedAt: now, reason: "harassment" });
    expect(existsSync(join(t.dataDir, oldStill))).toBe(false);
    for (const kept of [recent, open, underage]) {
      expect(await reportRow(t, kept.id)).toMatchObject({ purgedAt: null, transcript: kept.transcript, evidencePath: kept.evidencePath });
    }
    expect(existsSync(join(t.dataDir, underageStill))).toBe(true);
    // Two days later the recent one is due; a second run never touches a purged report again.
    expect(await sweepRetention(t.ctx, now + 2 * DAY)).toBe(1);
    expect((await reportRow(t, recent.id))!.purgedAt).toBe(now + 2 * DAY);
    expect((await reportRow(t, old.id))!.purgedAt).toBe(now);
    expect(await sweepRetention(t.ctx, now + 3 * DAY)).toBe(0);
  });

  test("an under-18 report goes only when an admin deletes it, with its still; a moderator cannot", async () => {
    const mod = await staff(t, "moderator");
    const admin = await staff(t, "admin");
    const reporter = await registerUser(t);
    const reported = await registerUser(t);
    const path = still();
    const report = await fileReport(t, reporter.user.id, reported.user.id, { reason: "underage", evidencePath: path, closedAt: Date.now() - 1000 * DAY });
    const open = await fileReport(t, reporter.user.id, reported.user.id, { reason: "underage" });
    await expect(deleteReport(t.ctx, mod.actor, report.id)).rejects.toThrow(expect.objectContaining({ status: 403 }));
    await expect(deleteReport(t.ctx, admin.actor, open.id)).rejects.toThrow(expect.objectContaining({ status: 400 }));
    await deleteReport(t.ctx, admin.actor, report.id);
    expect(await reportRow(t, report.id)).toBeUndefined();
    expect(existsSync(join(t.dataDir, path))).toBe(false);
    expect((await auditOf(t, reported.user.id)).at(-1)).toMatchObject({ actorId: admin.user.id, action: "delete_report", reportIds: JSON.stringify([report.id]) });
  });

  test("forgets the address hash of a ban that has ended", async () => {
    const target = await registerUser(t);
    await transaction(t.ctx.db, (tx) => tx.update(sessions).set({ addressHash: "hash-of-an-address" }).where(eq(sessions.userId, target.user.id)));
    const ban = await banUser(t.ctx, cli, target.user.id, { days: 1, reason: "Spam", banAddress: true });
    expect(ban.addressHash).toBe("hash-of-an-address");
    const hashOf = async () => (await t.ctx.db.select({ addressHash: bans.addressHash }).from(bans).where(eq(bans.id, ban.id)))[0]!.addressHash;
    await sweepRetention(t.ctx, Date.now());
    expect(await hashOf()).toBe("hash-of-an-address");
    await sweepRetention(t.ctx, ban.until! + 1);
    expect(await hashOf()).toBeNull();
  });
});
