import { describe, expect, test } from "bun:test";
import { RouletteQueue } from "../../src/roulette/queue.ts";
import type { ClientSocket } from "../../src/realtime/socket.ts";

const socket = (userId: number): ClientSocket => ({ id: `s${userId}`, userId, sessionId: "x", present: true, lastHeardAt: 0, sendText() {}, close() {} });
const any = { gender: "any" as const, country: "any" };
const profile = (userId: number, gender = "male", countryCode: string | null = "DE") => ({ userId, gender, countryCode });

describe("the roulette queue", () => {
  test("offers the longest-waiting suitable partner first", () => {
    const q = new RouletteQueue();
    const wantsWoman = { gender: "female" as const, country: "any" };
    expect(q.search(profile(1, "male"), wantsWoman, socket(1))).toBeNull();
    expect(q.search(profile(2, "male"), wantsWoman, socket(2))).toBeNull();
    const pairing = q.search(profile(3, "female"), any, socket(3));
    expect(pairing?.offerer.profile.userId).toBe(3);
    expect(pairing?.answerer.profile.userId).toBe(1);
    expect(q.partnerOf(1)).toBe(3);
    expect(q.isWaiting(2)).toBe(true);
  });

  test("keeps just-parted users apart while someone else waits, for a minute at most", () => {
    let now = 1_000_000;
    const q = new RouletteQueue(() => now);
    q.search(profile(1), any, socket(1));
    q.search(profile(2), any, socket(2));
    q.leave(1);
    q.search(profile(3, "female"), { gender: "female", country: "any" }, socket(3)); // waits, suits nobody here
    q.search(profile(1), any, socket(1));
    expect(q.search(profile(2), any, socket(2))).toBeNull();
    now += 61_000;
    q.leave(2);
    expect(q.search(profile(2), any, socket(2))?.answerer.profile.userId).toBe(1);
  });

  test("a user with no country never suits a country filter", () => {
    const q = new RouletteQueue();
    q.search(profile(1, "male", null), any, socket(1));
    expect(q.search(profile(2), { gender: "any", country: "DE" }, socket(2))).toBeNull();
  });
});
