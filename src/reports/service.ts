// Filing a report: whom it is about, whether it merges into the reporter's earlier one, the
// evidence captured now, and what follows (never paired again, the roulette session ended, and
// perhaps an automatic suspension).
import { and, desc, eq, gte, or } from "drizzle-orm";
import { messages, reports, type ReportRow, type UserRow } from "../storage/tables.ts";
import type { AppContext } from "../context.ts";
import { transaction, type Db, type Tx } from "../storage/index.ts";
import { AppError, notFound, rateLimited, validationError } from "../http/errors.ts";
import { leaveRoulette } from "../realtime/handlers/roulette.ts";
import { iso } from "../time.ts";
import { findUser } from "../users/service.ts";
import { assertStillSize, chatTranscript, cleanStill, removeStill, rouletteTranscript, saveStill } from "./evidence.ts";
import {
  MAX_MERGED_DETAILS,
  MERGE_WINDOW_MS,
  SEVERE_REASONS,
  type ReportBody,
  type ReportSummary,
} from "./model.ts";
import { metReported } from "./contact.ts";
import { lockReporter } from "./reporter-lock.ts";
import { checkSuspension } from "./suspension.ts";
import { keepApartEverywhere } from "../blocks/strangers.ts";
import { reporterWeight } from "./weights.ts";

/** Where a report was made from, for one vote per network and per device (weights.ts). */
export interface ReportOrigin {
  /** addressHash of the network (an IPv4 address or an IPv6 /64); null when not known. */
  addressHash: string | null;
  deviceId: string | null;
}

export interface Filed {
  report: ReportSummary;
  merged: boolean;
}

const summary = (row: ReportRow): ReportSummary => ({ id: row.id, status: row.status, created_at: iso(row.createdAt) });

/** The reported user's id, from `reportedUserId` or, for roulette, from the pairing id. */
async function reportedIdOf(ctx: AppContext, reporter: UserRow, body: ReportBody): Promise<number> {
  if (body.context === "roulette") {
    if (body.rouletteId === undefined) throw validationError({ rouletteId: "Say which roulette partner (rouletteId)" });
    if (body.reportedUserId !== undefined) throw validationError({ reportedUserId: "A roulette partner is named by rouletteId only" });
    const stranger = ctx.roulette.strangerOf(body.rouletteId, reporter.id);
    if (stranger === undefined) throw notFound("This roulette session is unknown or ended more than 10 minutes ago");
    return stranger;
  }
  if (body.rouletteId !== undefined) throw validationError({ rouletteId: "rouletteId goes only with the roulette context" });
  if (body.reportedUserId === undefined) throw validationError({ reportedUserId: "Say whom you are reporting (reportedUserId)" });
  if (body.reportedUserId === reporter.id) throw validationError({ reportedUserId: "You cannot report yourself" }, "You cannot report yourself");
  if (!(await findUser(ctx.db, body.reportedUserId))) throw notFound("User not found");
  return body.reportedUserId;
}

/** A message report names a message of the conversation between the two. */
async function checkMessage(ctx: AppContext, reporterId: number, reportedId: number, body: ReportBody): Promise<void> {
  if (body.context !== "message") {
    if (body.messageId !== undefined) throw validationError({ messageId: "messageId goes only with the message context" });
    return;
  }
  if (body.messageId === undefined) throw validationError({ messageId: "Say which message (messageId)" });
  const [row] = await ctx.db
    .select({ id: messages.id })
    .from(messages)
    .where(
      and(
        eq(messages.id, body.messageId),
        or(
          and(eq(messages.senderId, reportedId), eq(messages.receiverId, reporterId)),
          and(eq(messages.senderId, reporterId), eq(messages.receiverId, reportedId)),
        ),
      ),
    )
    .limit(1);
  if (!row) throw notFound("Message not found");
}

async function earlierReport(db: Db | Tx, reporterId: number, reportedId: number, context: string, now: number): Promise<ReportRow | undefined> {
  const [row] = await db
    .select()
    .from(reports)
    .where(
      and(
        eq(reports.reporterId, reporterId),
        eq(reports.reportedId, reportedId),
        eq(reports.context, context),
        gte(reports.createdAt, now - MERGE_WINDOW_MS),
      ),
    )
    .orderBy(desc(reports.createdAt), desc(reports.id))
    .limit(1);
  return row;
}

async function takeBudget(ctx: AppContext, userId: number): Promise<void> {
  const wait = await ctx.limits.reports.take(String(userId));
  if (wait > 0) throw rateLimited(wait);
}

const isSevere = (reason: string) => SEVERE_REASONS.some((r) => r === reason);

async function transcriptFor(ctx: AppContext, reporterId: number, reportedId: number, body: ReportBody): Promise<string | null> {
  if (body.context === "chat" || body.context === "message") {
    return JSON.stringify(await chatTranscript(ctx.db, reporterId, reportedId, body.messageId));
  }
  if (body.context === "roulette" && body.rouletteId !== undefined) {
    const session = ctx.roulette.sessions.find(body.rouletteId);
    return session ? JSON.stringify(rouletteTranscript(session)) : null;
  }
  return null;
}

/** Adds to the earlier report: details appended, newer evidence kept, a severe reason kept. */
async function merge(tx: Tx, earlier: ReportRow, body: ReportBody, transcript: string | null, evidencePath: string | null, weight: number, origin: ReportOrigin, now: number): Promise<ReportRow | undefined> {
  const details = [earlier.details, body.details?.trim() ?? ""].filter(Boolean).join("\n\n").slice(0, MAX_MERGED_DETAILS);
  const reason = isSevere(earlier.reason) || !isSevere(body.reason) ? earlier.reason : body.reason;
  const [row] = await tx
    .update(reports)
    .set({
      details,
      reason,
      transcript: transcript ?? earlier.transcript,
      evidencePath: evidencePath ?? earlier.evidencePath,
      stillBackend: evidencePath ? (body.stillBackend ?? null) : earlier.stillBackend,
      messageId: body.messageId ?? earlier.messageId,
      weight: Math.max(weight, earlier.weight),
      reporterAddressHash: earlier.reporterAddressHash ?? origin.addressHash,
      reporterDeviceId: earlier.reporterDeviceId ?? origin.deviceId,
      updatedAt: now,
    })
    .where(eq(reports.id, earlier.id))
    .returning();
  return row;
}

export async function fileReport(ctx: AppContext, reporter: UserRow, body: ReportBody, evidence: File | undefined, origin: ReportOrigin, now: number): Promise<Filed> {
  const reportedId = await reportedIdOf(ctx, reporter, body);
  await checkMessage(ctx, reporter.id, reportedId, body);
  if (evidence) {
    if (body.context !== "call" && body.context !== "roulette") {
      throw validationError({ evidence: "A still goes only with call and roulette reports" });
    }
    assertStillSize(evidence);
  }
  // Merges are free: only a new report spends the hourly budget, and it is spent before the work.
  if (!(await earlierReport(ctx.db, reporter.id, reportedId, body.context, now))) await takeBudget(ctx, reporter.id);
  const evidencePath = evidence ? await saveStill(ctx.config, await cleanStill(evidence)) : null;
  const transcript = await transcriptFor(ctx, reporter.id, reportedId, body);
  // Without contact the report still reaches moderators, but weighs nothing toward a suspension.
  const weight = (await metReported(ctx, reporter.id, reportedId, body, now)) ? reporterWeight(reporter, now) : 0;

  // Looked up again, with the reporter's other reports waiting: another request may have filed
  // the first report while the still was cleaned, or be filing it now.
  const { earlier, row } = await transaction(ctx.db, async (tx) => {
    await lockReporter(tx, reporter.id);
    const earlier = await earlierReport(tx, reporter.id, reportedId, body.context, now);
    if (earlier) return { earlier, row: await merge(tx, earlier, body, transcript, evidencePath, weight, origin, now) };
    const [row] = await tx
      .insert(reports)
      .values({
        reporterId: reporter.id,
        reportedId,
        context: body.context,
        reason: body.reason,
        details: body.details?.trim() ?? "",
        messageId: body.messageId ?? null,
        rouletteId: body.rouletteId ?? null,
        transcript,
        evidencePath,
        stillBackend: evidencePath ? (body.stillBackend ?? null) : null,
        weight,
        reporterAddressHash: origin.addressHash,
        reporterDeviceId: origin.deviceId,
        status: "open",
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    return { earlier, row };
  });
  if (earlier && evidencePath && earlier.evidencePath) await removeStill(ctx.config, earlier.evidencePath);
  if (!row) throw new AppError(500, "internal", "The report could not be stored");

  // Whoever reports someone never meets them in roulette again; a roulette report also ends the
  // session for the reporter, as Next does.
  keepApartEverywhere(ctx, reporter.id, reportedId);
  if (body.context === "roulette" && ctx.roulette.sessionOf(reporter.id)?.id === body.rouletteId) {
    leaveRoulette(ctx, reporter.id, "roulette_partner_next");
  }
  if (isSevere(row.reason)) await checkSuspension(ctx, reportedId, now);
  return { report: summary(row), merged: earlier !== undefined };
}

/** At start-up (loadContext in context.ts): everyone who ever reported someone stays apart from them in roulette. */
export async function loadReportedPairs(ctx: Pick<AppContext, "db" | "roulette">): Promise<void> {
  const rows = await ctx.db.selectDistinct({ a: reports.reporterId, b: reports.reportedId }).from(reports);
  for (const row of rows) ctx.roulette.keepApart(row.a, row.b);
}
