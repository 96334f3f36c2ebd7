import { describe, expect, test } from "bun:test";
import { MAX_PARTED, PARTED_MS, RecentlyParted } from "../../src/roulette/parted.ts";

describe("recently parted pairs", () => {
  test("keeps a pair apart for the window, in either order, then forgets it", () => {
    let now = 1_000_000;
    const parted = new RecentlyParted(() => now);
    parted.record(7, 3);
    expect(parted.has(3, 7)).toBe(true);
    now += PARTED_MS;
    expect(parted.has(7, 3)).toBe(true);
    now += 1;
    expect(parted.has(7, 3)).toBe(false);
  });

  test("sweeps expired partings as new ones are recorded", () => {
    let now = 0;
    const parted = new RecentlyParted(() => now);
    for (let i = 0; i < 1000; i++) parted.record(i, i + 1);
    now += PARTED_MS + 1;
    parted.record(5000, 5001);
    expect(parted.size).toBe(1);
    expect(parted.held).toBe(1);
  });

  test("two accounts cycling Next hold one entry, and their records stay under the cap", () => {
    let now = 0;
    const parted = new RecentlyParted(() => now, 100);
    for (let i = 0; i < 50_000; i++) {
      now += 1;
      parted.record(1, 2);
    }
    expect(parted.size).toBe(1);
    expect(parted.held).toBeLessThanOrEqual(100);
    expect(parted.has(1, 2)).toBe(true);
  });

  test("never holds more than the cap inside one window, however many accounts part", () => {
    const parted = new RecentlyParted(() => 0);
    for (let i = 0; i < MAX_PARTED * 2; i++) parted.record(i, i + 1_000_000_000);
    expect(parted.size).toBe(MAX_PARTED);
    expect(parted.held).toBe(MAX_PARTED);
    // The newest are the ones kept.
    expect(parted.has(MAX_PARTED * 2 - 1, MAX_PARTED * 2 - 1 + 1_000_000_000)).toBe(true);
    expect(parted.has(0, 1_000_000_000)).toBe(false);
  });
});
