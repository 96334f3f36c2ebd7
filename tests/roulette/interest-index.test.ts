// The waiting index and queue with languages and interests (issue 24): exact answers for every
// language combination, the shared-interest buckets, opening after the wait, and memory that
// follows who waits. The socket rules are in interests.test.ts.
import { describe, expect, test } from "bun:test";
import { WaitingIndex, type RouletteFilters, type RouletteProfile } from "../../src/roulette/index.ts";
import { RouletteQueue, type Pairing } from "../../src/roulette/queue.ts";
import { fakeSocket } from "../support/fake-socket.ts";

const person = (userId: number, languages: string[] = [], gender = "female", countryCode: string | null = "DE"): RouletteProfile => ({ userId, gender, countryCode, languages });
const wants = (language = "any", interests: string[] = [], extra: Partial<RouletteFilters> = {}): RouletteFilters => ({ gender: "any", country: "any", language, interests, ...extra });
const everyone = () => true;

const speaks = (f: RouletteFilters, p: RouletteProfile) => (f.language ?? "any") === "any" || (p.languages ?? []).includes(f.language!);

describe("the waiting index with languages", () => {
  test("finds a waiting person exactly when each speaks the language the other asks for, for every combination", () => {
    const spoken = [[], ["de"], ["de", "fr"], ["fr", "en"]];
    const asked = ["any", "de", "fr", "en"];
    let checked = 0;
    for (const ws of spoken) for (const wl of asked) for (const ss of spoken) for (const sl of asked) for (const gender of ["female", "male"]) {
      const index = new WaitingIndex<string>();
      const waiter = person(1, ws);
      const waiterFilters = wants(wl);
      index.add(waiter, waiterFilters, "w");
      const searcher = person(2, ss, gender, null);
      const searcherFilters = wants(sl, [], { gender: gender === "male" ? "female" : "any" });
      const expected = speaks(searcherFilters, waiter) && speaks(waiterFilters, searcher);
      expect({ ws, wl, ss, sl, found: index.first(searcher, searcherFilters, everyone) !== undefined }).toEqual({ ws, wl, ss, sl, found: expected });
      checked++;
    }
    expect(checked).toBe(4 * 4 * 4 * 4 * 2);
  });
});

describe("the waiting index with interests", () => {
  test("a shared search reads only people sharing a tag, longest-waiting first, and an open search only open people", () => {
    const index = new WaitingIndex<string>();
    index.add(person(1), wants("any", ["chess"]), "a", false);
    index.add(person(2), wants(), "b");
    index.add(person(3), wants("any", ["go", "chess"]), "c", false);
    index.add(person(4), wants("any", ["hiking"]), "d", false);
    const order: number[] = [];
    index.first(person(9), wants("any", ["hiking", "chess"]), (e) => (order.push(e.profile.userId), false), true);
    expect(order).toEqual([1, 3, 4]);
    // Open: only the one without interests until a wait ends.
    const open: number[] = [];
    index.first(person(9), wants(), (e) => (open.push(e.profile.userId), false));
    expect(open).toEqual([2]);
    // Waits end in arrival order (every wait is as long), so each open list stays in that order.
    index.openUp(index.get(1)!);
    index.openUp(index.get(3)!);
    open.length = 0;
    index.first(person(9), wants(), (e) => (open.push(e.profile.userId), false));
    // Still in arrival order across the two kinds of open lists.
    expect(open).toEqual([1, 2, 3]);
  });

  test("a search reads no one outside its buckets, however many wait with other tags", () => {
    const index = new WaitingIndex<string>();
    const tags = ["music", "movies", "gaming", "travel", "books", "football", "cooking", "art"];
    for (let id = 1; id <= 1000; id++) index.add(person(id, ["en"]), wants("any", [tags[id % 8]!, tags[(id + 3) % 8]!]), `s${id}`, false);
    index.add(person(2000, ["en"]), wants("any", ["chess"]), "x", false);
    let read = 0;
    expect(index.first(person(3000, ["en"]), wants("any", ["chess"]), () => (read++, true), true)?.profile.userId).toBe(2000);
    expect(read).toBe(1);
    read = 0;
    expect(index.first(person(3000, ["en"]), wants(), () => (read++, true))).toBeUndefined();
    expect(read).toBe(0);
  });

  test("leaving takes a person out of every tag's buckets; empty buckets and tags go", () => {
    const index = new WaitingIndex<string>();
    index.add(person(1, ["de", "en"]), wants("fr", ["chess", "go"]), "a", false);
    // 2 genders x 2 countries x (any + 2 languages) = 12 buckets a tag.
    expect(index.bucketCount).toBe(24);
    expect(index.tagCount).toBe(2);
    index.openUp(index.get(1)!);
    expect(index.bucketCount).toBe(36);
    index.remove(1);
    expect(index.bucketCount).toBe(0);
    expect(index.tagCount).toBe(0);
    expect(index.size).toBe(0);
  });
});

describe("the queue's wait for a shared interest", () => {
  test("ends after the wait: the search is paired with the longest-waiting open person, and told through onLatePairing", () => {
    let now = 1_000_000;
    const q = new RouletteQueue(() => now, undefined, 10_000);
    const late: Pairing[] = [];
    q.onLatePairing = (p) => late.push(p);
    expect(q.search(person(1), wants(), fakeSocket(1))).toBeNull();
    expect(q.search(person(2), wants("any", ["chess"]), fakeSocket(2))).toBeNull();
    now += 9_999;
    expect(q.openDue()).toEqual([]);
    now += 1;
    const [pairing] = q.openDue();
    expect(pairing?.offerer.profile.userId).toBe(2);
    expect(pairing?.answerer.profile.userId).toBe(1);
    expect(pairing?.sharedInterests).toEqual([]);
    expect(late).toEqual([pairing!]);
    expect(q.openingCount).toBe(0);
    q.close();
  });

  test("with interests only, never opens; a stale wait (searched again, or left) is skipped", () => {
    let now = 1_000_000;
    const q = new RouletteQueue(() => now, undefined, 10_000);
    q.search(person(1), wants("any", ["chess"], { interestsOnly: true }), fakeSocket(1));
    expect(q.openingCount).toBe(0);
    q.search(person(2), wants("any", ["go"]), fakeSocket(2));
    now += 5_000;
    q.search(person(2), wants("any", ["poker"]), fakeSocket(2));
    q.search(person(3), wants("any", ["tea"]), fakeSocket(3));
    q.leave(3);
    now += 5_000;
    // 2's first wait is over, but 2 searched again: nothing opens yet.
    expect(q.openDue()).toEqual([]);
    expect(q.search(person(4), wants(), fakeSocket(4))).toBeNull();
    now += 5_000;
    expect(q.openDue().map((p) => [p.offerer.profile.userId, p.answerer.profile.userId])).toEqual([[2, 4]]);
    expect(q.isWaiting(1)).toBe(true);
    expect(q.search(person(5), wants("any", ["chess"]), fakeSocket(5))?.sharedInterests).toEqual(["chess"]);
    expect(q.openingCount).toBe(0);
    expect(q.waitingCount).toBe(0);
    q.close();
  });

  test("with no wait configured, a search with interests takes anyone at once", () => {
    const q = new RouletteQueue(Date.now, undefined, 0);
    q.search(person(1), wants(), fakeSocket(1));
    q.search(person(2), wants("any", ["chess"]), fakeSocket(2));
    // 2 took 1 at once.
    expect(q.partnerOf(2)).toBe(1);
    q.search(person(3), wants("any", ["go"]), fakeSocket(3));
    expect(q.search(person(4), wants("any", ["chess"]), fakeSocket(4))?.sharedInterests).toEqual([]);
    expect(q.partnerOf(4)).toBe(3);
    expect(q.openingCount).toBe(0);
    q.close();
  });
});
