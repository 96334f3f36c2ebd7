// Whether a reporter met the person they report, checked on the server: only such a report weighs
// toward the automatic roulette suspension (weights.ts). Anyone may still report anyone; a report
// without contact is stored and reaches moderators as usual, but weighs nothing, so accounts that
// never met someone cannot push them out of roulette (issue 18: three day-old accounts did it in
// 0.02 s without ever meeting the person).
import { metInCall } from "../calls/meetings.ts";
import type { AppContext } from "../context.ts";
import type { ReportBody } from "./model.ts";

export async function metReported(ctx: AppContext, reporterId: number, reportedId: number, body: ReportBody, now: number): Promise<boolean> {
  // A roulette report names its pairing, and reportedIdOf accepted it only from one of its two people.
  if (body.context === "roulette") return true;
  // A conversation: a message either way (or both chose Keep in touch after roulette), held in memory.
  if (ctx.contacts.partnersOf(reporterId).has(reportedId)) return true;
  return await metInCall(ctx.db, reporterId, reportedId, now);
}
