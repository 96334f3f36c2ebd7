// Automatic suspension from roulette (API.md "Safety", Suspension). Each report of sexual content
// or under-18 carries its reporter's weight; a user is suspended when distinct reporters within
// 24 hours reach REPORT_AUTO_SUSPEND. Fresh accounts are cheap to make, so they weigh less, and
// together they can never reach the threshold alone:
//   - a registered account older than 24 hours weighs 1 ("established");
//   - a registered account younger than 24 hours weighs 0.5;
//   - a guest weighs 0.25, however old;
//   - guests and new accounts together count for at most (threshold - 1), and at least one
//     established reporter is always needed.
// With the default threshold 3: three established reporters suspend; so do one established
// reporter and four new accounts (1 + 2) or eight guests; any number of guests alone never does.
import type { UserRow } from "../../db/schema.ts";

export const ESTABLISHED_AFTER_MS = 24 * 60 * 60_000;
export const SUSPENSION_WINDOW_MS = 24 * 60 * 60_000;

export function reporterWeight(reporter: Pick<UserRow, "isGuest" | "createdAt">, now: number): number {
  if (reporter.isGuest) return 0.25;
  return now - reporter.createdAt >= ESTABLISHED_AFTER_MS ? 1 : 0.5;
}

/** `weights`: one per distinct reporter. */
export function reachesSuspension(weights: readonly number[], threshold: number): boolean {
  const established = weights.filter((w) => w >= 1).length;
  const light = weights.filter((w) => w < 1).reduce((sum, w) => sum + w, 0);
  if (established === 0) return false;
  return established + Math.min(light, threshold - 1) >= threshold;
}
