// What a report may say (API.md "Safety"): the fixed lists, the limits, and the body schema that
// JSON and multipart requests are both checked against.
import { Type as t, type Static } from "@sinclair/typebox";
import { BACKEND_LABELS } from "../../islands/nudity/backends.ts";

export const reportContexts = ["chat", "message", "call", "roulette", "profile"] as const;
export const reportReasons = ["sexual_content", "underage", "harassment", "spam", "violence", "other"] as const;

export type ReportContext = (typeof reportContexts)[number];
export type ReportReason = (typeof reportReasons)[number];

/** The reasons that count toward automatic suspension from roulette. */
export const SEVERE_REASONS: readonly ReportReason[] = ["sexual_content", "underage"];

export const MAX_DETAILS = 1000;
/** A merged report keeps every addition, up to this much, so one row cannot grow without end. */
export const MAX_MERGED_DETAILS = 10_000;
/** A second report of the same person in the same context within this time adds to the first. */
export const MERGE_WINDOW_MS = 10 * 60_000;
/** Messages of a conversation copied into a chat or message report. */
export const TRANSCRIPT_MESSAGES = 50;

const oneOf = (values: readonly string[], error: string) => t.Union(values.map((v) => t.Literal(v)), { error });
const id = (error: string) => t.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, error });

export const reportBody = t.Object({
  reportedUserId: t.Optional(id("reportedUserId must be a user id")),
  rouletteId: t.Optional(t.String({ minLength: 1, maxLength: 64, error: "rouletteId must be the id of a roulette partner" })),
  context: oneOf(reportContexts, `Choose where it happened: ${reportContexts.join(", ")}`),
  reason: oneOf(reportReasons, `Choose a reason: ${reportReasons.join(", ")}`),
  details: t.Optional(t.String({ maxLength: MAX_DETAILS, error: `Details can be at most ${MAX_DETAILS} characters` })),
  messageId: t.Optional(id("messageId must be a message id")),
  /** Which backend ran the reporter's nudity check (issue 21): kept with the still, ignored without one. */
  stillBackend: t.Optional(oneOf(BACKEND_LABELS, `stillBackend must be one of ${BACKEND_LABELS.join(", ")}`)),
});

export type ReportBody = Static<typeof reportBody>;

/** The answer's shape: moderators see the rest; the reporter only learns it was received. */
export interface ReportSummary {
  id: number;
  status: string;
  created_at: string;
}
