// Shared by the moderation tests: staff accounts, reports filed straight into the database, and
// the audit rows an action wrote.
import { desc, eq } from "drizzle-orm";
import { auditLog, reports, type AuditRow } from "../../db/schema.ts";
import type { Actor } from "../../src/moderation/actions.ts";
import { registerUser, type TestApp } from "../support/app.ts";

export const cli: Actor = { id: null, role: "cli" };

/** A registered account with a role, and the Actor the console would build for it. */
export async function staff(t: TestApp, role: "moderator" | "admin") {
  const registered = await registerUser(t);
  t.ctx.sqlite.query("UPDATE users SET role = ? WHERE id = ?").run(role, registered.user.id);
  const actor: Actor = { id: registered.user.id, role };
  return { ...registered, actor };
}

export function fileReport(t: TestApp, reporterId: number, reportedId: number, fields: { reason?: string; evidencePath?: string | null; closedAt?: number | null } = {}) {
  const now = Date.now();
  return t.ctx.db
    .insert(reports)
    .values({
      reporterId,
      reportedId,
      context: "chat",
      reason: fields.reason ?? "harassment",
      details: "said awful things",
      transcript: JSON.stringify([{ content: "awful" }]),
      evidencePath: fields.evidencePath ?? null,
      weight: 1,
      status: fields.closedAt ? "actioned" : "open",
      closedAt: fields.closedAt ?? null,
      createdAt: now,
      updatedAt: now,
    })
    .returning()
    .get();
}

export const reportRow = (t: TestApp, id: number) => t.ctx.db.select().from(reports).where(eq(reports.id, id)).get();

/** The audit rows about a user, newest first. */
export const auditOf = (t: TestApp, targetUserId: number): AuditRow[] =>
  t.ctx.db.select().from(auditLog).where(eq(auditLog.targetUserId, targetUserId)).orderBy(desc(auditLog.id)).all();
