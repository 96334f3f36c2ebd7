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
// Since issue 18, two more rules decide who counts at all:
//   - a report weighs 0 unless its reporter met the reported person (contact.ts);
//   - reporters who share a network (an IPv4 address or an IPv6 /64) or a device, where they
//     reported from or where they signed in from, are one voice, however they chain (voiceWeights),
//     with the weight of the heaviest among them.
import type { UserRow } from "../storage/tables.ts";

export const ESTABLISHED_AFTER_MS = 24 * 60 * 60_000;
export const SUSPENSION_WINDOW_MS = 24 * 60 * 60_000;

export function reporterWeight(reporter: Pick<UserRow, "isGuest" | "createdAt">, now: number): number {
  if (reporter.isGuest) return 0.25;
  return now - reporter.createdAt >= ESTABLISHED_AFTER_MS ? 1 : 0.5;
}

/** One report toward a suspension, with where it was made from (null: not known). */
export interface CountedReport {
  reporterId: number;
  weight: number;
  addressHash: string | null;
  deviceId: string | null;
}

/** Where a reporter has signed in from (their sessions): joins them to others from there too. */
export interface SignIn {
  userId: number;
  addressHash: string | null;
  deviceId: string | null;
}

/**
 * One weight per voice: reports that share a reporter, a network or a device are one voice, the
 * heaviest of them; `signIns` join a reporter to the networks and devices they signed in from as
 * well. Reports that weigh nothing are left out first, so they can never join two voices into one.
 */
export function voiceWeights(reports: readonly CountedReport[], signIns: readonly SignIn[] = []): number[] {
  const parent = new Map<string, string>();
  const root = (key: string): string => {
    let at = key;
    for (let up = parent.get(at); up !== undefined && up !== at; up = parent.get(at)) at = up;
    parent.set(key, at);
    return at;
  };
  const join = (a: string, b: string) => {
    const ra = root(a);
    const rb = root(b);
    if (ra !== rb) parent.set(ra, rb);
  };
  const counted = reports.filter((r) => r.weight > 0);
  const link = (userId: number, addressHash: string | null, deviceId: string | null) => {
    const reporter = `u:${userId}`;
    if (!parent.has(reporter)) parent.set(reporter, reporter);
    for (const key of [addressHash && `a:${addressHash}`, deviceId && `d:${deviceId}`]) {
      if (!key) continue;
      if (!parent.has(key)) parent.set(key, key);
      join(reporter, key);
    }
  };
  for (const r of counted) link(r.reporterId, r.addressHash, r.deviceId);
  const voiced = new Set(counted.map((r) => r.reporterId));
  for (const s of signIns) if (voiced.has(s.userId)) link(s.userId, s.addressHash, s.deviceId);
  const heaviest = new Map<string, number>();
  for (const r of counted) {
    const voice = root(`u:${r.reporterId}`);
    heaviest.set(voice, Math.max(r.weight, heaviest.get(voice) ?? 0));
  }
  return [...heaviest.values()];
}

/** `weights`: one per voice (voiceWeights). */
export function reachesSuspension(weights: readonly number[], threshold: number): boolean {
  const established = weights.filter((w) => w >= 1).length;
  const light = weights.filter((w) => w < 1).reduce((sum, w) => sum + w, 0);
  if (established === 0) return false;
  return established + Math.min(light, threshold - 1) >= threshold;
}
