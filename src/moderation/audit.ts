// The append-only audit log: one row per action, written in the same transaction as the action.
// Nothing in the code updates or deletes these rows.
import { auditLog, type AuditRow } from "../storage/tables.ts";
import type { Tx } from "../storage/index.ts";

export type AuditAction =
  | "warn"
  | "ban"
  | "unban"
  | "remove_message"
  | "remove_avatar"
  | "suspend_roulette"
  | "lift_suspension"
  | "dismiss"
  | "end_sessions"
  | "grant_role"
  | "revoke_role"
  | "uphold_appeal"
  | "lift_appeal"
  | "delete_report"
  | "retention_sweep";

export interface AuditEntry {
  at: number;
  actorId: number | null;
  action: AuditAction;
  targetUserId: number | null;
  reportIds?: readonly number[];
  reason?: string | null;
  detail?: Record<string, unknown>;
}

export async function writeAudit(db: Tx, entry: AuditEntry): Promise<AuditRow> {
  const [row] = await db
    .insert(auditLog)
    .values({
      at: entry.at,
      actorId: entry.actorId,
      action: entry.action,
      targetUserId: entry.targetUserId,
      reportIds: entry.reportIds && entry.reportIds.length > 0 ? JSON.stringify(entry.reportIds) : null,
      reason: entry.reason ?? null,
      detail: entry.detail ? JSON.stringify(entry.detail) : null,
    })
    .returning();
  return row!;
}
