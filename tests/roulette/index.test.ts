import { describe, expect, test } from "bun:test";
import { WaitingIndex, type RouletteFilters, type RouletteProfile } from "../../src/roulette/index.ts";

const profile = (userId: number, gender: string, countryCode: string | null): RouletteProfile => ({ userId, gender, countryCode });
const filters = (gender: RouletteFilters["gender"], country: string): RouletteFilters => ({ gender, country });
const any = filters("any", "any");
const everyone = () => true;

/** The rule the index must give the same answers as (API.md: each one's profile suits the other's filters). */
const suits = (f: RouletteFilters, p: RouletteProfile) =>
  (f.gender === "any" || f.gender === p.gender) && (f.country === "any" || f.country === p.countryCode);

const genders = ["male", "female"];
const countries = ["DE", "FR", null];
const genderFilters: RouletteFilters["gender"][] = ["any", "male", "female"];
const countryFilters = ["any", "DE", "FR"];

describe("the roulette waiting index", () => {
  test("finds a waiting person exactly when each one's profile suits the other's filters, for every combination", () => {
    let checked = 0;
    for (const wg of genders) for (const wc of countries) for (const wfg of genderFilters) for (const wfc of countryFilters) {
      const waiter = profile(1, wg, wc);
      const waiterFilters = filters(wfg, wfc);
      for (const sg of genders) for (const sc of countries) for (const sfg of genderFilters) for (const sfc of countryFilters) {
        const index = new WaitingIndex<string>();
        index.add(waiter, waiterFilters, "waiter");
        const searcher = profile(2, sg, sc);
        const searcherFilters = filters(sfg, sfc);
        const expected = suits(searcherFilters, waiter) && suits(waiterFilters, searcher);
        expect({ waiter, waiterFilters, searcher, searcherFilters, found: index.first(searcher, searcherFilters, everyone) !== undefined }).toEqual({ waiter, waiterFilters, searcher, searcherFilters, found: expected });
        checked++;
      }
    }
    expect(checked).toBe(54 * 54);
  });

  test("a searcher whose profile does not suit the waiting person's filters is not offered them", () => {
    const index = new WaitingIndex<string>();
    index.add(profile(1, "male", "DE"), filters("female", "FR"), "a");
    expect(index.first(profile(2, "female", "DE"), any, everyone)).toBeUndefined();
    expect(index.first(profile(3, "male", "FR"), any, everyone)).toBeUndefined();
    expect(index.first(profile(4, "female", "FR"), any, everyone)?.profile.userId).toBe(1);
  });

  test("offers the longest-waiting suitable person first, across buckets", () => {
    const index = new WaitingIndex<string>();
    index.add(profile(1, "female", "FR"), filters("male", "any"), "a");
    index.add(profile(2, "female", "DE"), any, "b");
    index.add(profile(3, "female", "DE"), filters("any", "DE"), "c");
    index.add(profile(4, "female", null), any, "d");
    const me = profile(9, "male", "DE");
    expect(index.first(me, any, everyone)?.profile.userId).toBe(1);
    expect(index.first(me, filters("female", "DE"), everyone)?.profile.userId).toBe(2);
    const order: number[] = [];
    index.first(me, filters("female", "any"), (e) => (order.push(e.profile.userId), false));
    expect(order).toEqual([1, 2, 3, 4]);
  });

  test("keeps arrival order within a bucket, and a repeated search waits at the back", () => {
    const index = new WaitingIndex<string>();
    for (const id of [1, 2, 3]) index.add(profile(id, "female", "DE"), any, `s${id}`);
    index.add(profile(1, "female", "DE"), any, "s1 again");
    const order: number[] = [];
    index.first(profile(9, "male", "DE"), any, (e) => (order.push(e.profile.userId), false));
    expect(order).toEqual([2, 3, 1]);
    expect(index.get(1)?.socket).toBe("s1 again");
    expect(index.size).toBe(3);
  });

  test("skips the people the caller may not meet (a block) and offers the next one", () => {
    const index = new WaitingIndex<string>();
    index.add(profile(1, "female", "DE"), any, "a");
    index.add(profile(2, "female", "DE"), any, "b");
    const blocked = new Set([1]);
    expect(index.first(profile(9, "male", "DE"), any, (e) => !blocked.has(e.profile.userId))?.profile.userId).toBe(2);
  });

  test("never offers the searcher to themselves", () => {
    const index = new WaitingIndex<string>();
    index.add(profile(1, "female", "DE"), any, "a");
    expect(index.first(profile(1, "female", "DE"), any, everyone)).toBeUndefined();
  });

  test("leaving takes a person out of every bucket, and empty buckets go with them", () => {
    const index = new WaitingIndex<string>();
    index.add(profile(1, "female", "DE"), any, "a");
    expect(index.bucketCount).toBe(4);
    index.add(profile(2, "male", null), filters("female", "any"), "b");
    expect(index.remove(1)?.socket).toBe("a");
    for (const f of [any, filters("female", "any"), filters("any", "DE"), filters("female", "DE")]) {
      expect(index.first(profile(9, "male", "DE"), f, everyone)).toBeUndefined();
    }
    expect(index.has(1)).toBe(false);
    expect(index.remove(1)).toBeUndefined();
    index.remove(2);
    expect(index.size).toBe(0);
    expect(index.bucketCount).toBe(0);
  });

  test("a search reads only the people in its buckets, not everyone waiting", () => {
    const index = new WaitingIndex<string>();
    for (let id = 1; id <= 1000; id++) index.add(profile(id, "male", "FR"), filters("female", "any"), `s${id}`);
    index.add(profile(2000, "female", "DE"), any, "x");
    let read = 0;
    const found = index.first(profile(3000, "male", "DE"), any, () => (read++, true));
    expect(found?.profile.userId).toBe(2000);
    expect(read).toBe(1);
  });
});
