// The per-user token buckets behind the socket event limit and the connection limit: a bucket
// outlives the socket that used it, and only buckets that are not yet full again take memory.
import { describe, expect, test } from "bun:test";
import { TokenBuckets } from "../../src/http/rate-limit.ts";

function clock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => void (now += ms) };
}

describe("token buckets", () => {
  test("a key gets its burst, then its rate, and nothing resets it but time", () => {
    const time = clock();
    const buckets = new TokenBuckets(20, 40, time.now);
    let taken = 0;
    for (let i = 0; i < 100; i++) if (buckets.take(7)) taken++;
    expect(taken).toBe(40);
    time.advance(500);
    taken = 0;
    for (let i = 0; i < 100; i++) if (buckets.take(7)) taken++;
    expect(taken).toBe(10);
  });

  test("says how many seconds until the next token", () => {
    const time = clock();
    const perMinute = new TokenBuckets(30 / 60, 30, time.now);
    for (let i = 0; i < 30; i++) expect(perMinute.take(1)).toBe(true);
    expect(perMinute.take(1)).toBe(false);
    expect(perMinute.retryAfter(1)).toBe(2);
    expect(perMinute.retryAfter(2)).toBe(0);
    time.advance(2000);
    expect(perMinute.retryAfter(1)).toBe(0);
    expect(perMinute.take(1)).toBe(true);
  });

  test("buckets that have filled up again are dropped, so memory holds only recently active keys", () => {
    const time = clock();
    const buckets = new TokenBuckets(20, 40, time.now);
    for (let key = 0; key < 20_000; key++) buckets.take(key);
    expect(buckets.size).toBeLessThanOrEqual(20_000);
    // 40 tokens at 20 a second: two seconds refill any bucket, which is then the same as none.
    time.advance(2000);
    for (let key = 100_000; key < 100_100; key++) buckets.take(key);
    expect(buckets.size).toBeLessThanOrEqual(10_100);
    time.advance(2000);
    buckets.sweep();
    expect(buckets.size).toBe(0);
  });

  test("a key that is still refilling is kept by a sweep", () => {
    const time = clock();
    const buckets = new TokenBuckets(20, 40, time.now);
    for (let i = 0; i < 40; i++) buckets.take(3);
    time.advance(1000);
    buckets.sweep();
    expect(buckets.size).toBe(1);
    expect(buckets.take(3)).toBe(true);
  });
});
