// How long a users row read from PostgreSQL stays in the cache (users/cache.ts Lifetimes): 1 to
// 1.9 s after its read, gone by 2 s at the latest, and rows read at the same moment leave at
// different moments, so their users' next frames do not all wait on a read together.
import { describe, expect, test } from "bun:test";
import { Lifetimes } from "../../src/users/cache.ts";

const T0 = 1_000_000;

function readAt(now: number, ids: number[], random: () => number) {
  const rows = new Map<number, true>();
  const lifetimes = new Lifetimes(rows, T0, random);
  for (const id of ids) {
    rows.set(id, true);
    lifetimes.add(id, now);
  }
  return { rows, lifetimes };
}

/** The first moment, in steps of 10 ms, at which `id` is gone. */
function goneAt(rows: Map<number, true>, lifetimes: Lifetimes, id: number, from: number): number {
  for (let t = from; t < from + 10_000; t += 10) {
    lifetimes.expire(t);
    if (!rows.has(id)) return t;
  }
  throw new Error(`row ${id} never left`);
}

describe("users cache lifetimes on PostgreSQL", () => {
  test("the shortest stay is 1 s and the longest ends by 2 s after the read", () => {
    for (const at of [T0, T0 + 37, T0 + 99]) {
      const shortest = readAt(at, [1], () => 0);
      const left = goneAt(shortest.rows, shortest.lifetimes, 1, at);
      expect(left - at).toBeGreaterThanOrEqual(1_000);
      expect(left - at).toBeLessThanOrEqual(1_100);
      const longest = readAt(at, [2], () => 0.999_999);
      const late = goneAt(longest.rows, longest.lifetimes, 2, at);
      expect(late - at).toBeGreaterThanOrEqual(1_900);
      expect(late - at).toBeLessThanOrEqual(2_000);
    }
  });

  test("rows read at one moment leave over most of a second, not together", () => {
    const ids = Array.from({ length: 1_000 }, (_, i) => i);
    const { rows, lifetimes } = readAt(T0, ids, Math.random);
    const leaving = new Map<number, number>();
    for (let t = T0; t <= T0 + 2_000; t += 100) {
      const before = rows.size;
      lifetimes.expire(t);
      if (before !== rows.size) leaving.set(t, before - rows.size);
    }
    expect(rows.size).toBe(0);
    // Nine 100 ms slots at least between 1 s and 1.9 s; none takes more than a fifth of them.
    expect(leaving.size).toBeGreaterThanOrEqual(9);
    expect(Math.max(...leaving.values())).toBeLessThan(200);
  });

  test("a row read later than the last lookup still gets a whole stay", () => {
    const rows = new Map<number, true>();
    const lifetimes = new Lifetimes(rows, T0, () => 0);
    // The read answers 750 ms after the last lookup moved the ring along.
    lifetimes.expire(T0);
    rows.set(7, true);
    lifetimes.add(7, T0 + 750);
    lifetimes.expire(T0 + 1_740);
    expect(rows.has(7)).toBe(true);
    expect(goneAt(rows, lifetimes, 7, T0 + 1_740) - (T0 + 750)).toBeLessThanOrEqual(1_100);
  });

  test("after a pause longer than any stay every row has gone, and the ring starts again", () => {
    const { rows, lifetimes } = readAt(T0, [1, 2, 3], Math.random);
    lifetimes.expire(T0 + 60_000);
    expect(rows.size).toBe(0);
    rows.set(4, true);
    lifetimes.add(4, T0 + 60_000);
    lifetimes.expire(T0 + 60_999);
    expect(rows.has(4)).toBe(true);
    expect(goneAt(rows, lifetimes, 4, T0 + 60_999)).toBeLessThanOrEqual(T0 + 62_000);
  });
});
