// The limits port's contract (src/cluster/ports.ts), against both engines: windows, sliding
// windows and slots are exact under concurrent calls from two instances (with one process, two
// callers of the same one), and give back what they promise.
import { describe, expect, test } from "bun:test";
import { enginePerTest, engines } from "../support/cluster.ts";
import { until } from "../support/until.ts";

describe.each(engines)("limits (%s)", (_name, make) => {
  const cluster = enginePerTest(make);

  test("a window of 10: 60 concurrent takes from two instances, exactly 10 fit, the rest learn the wait", async () => {
    const [a, b] = await cluster.two();
    const wa = a.limits.window("signups", 10, 60_000);
    const wb = b.limits.window("signups", 10, 60_000);
    const waits = await Promise.all(Array.from({ length: 60 }, (_, i) => (i % 2 ? wa : wb).take("10.0.0.1")));
    expect(waits.filter((w) => w === 0).length).toBe(10);
    for (const wait of waits.filter((w) => w > 0)) {
      expect(wait).toBeGreaterThan(0);
      expect(wait).toBeLessThanOrEqual(60);
    }
    expect(await wa.retryAfter("10.0.0.1")).toBeGreaterThan(0);
    expect(await wb.retryAfter("10.0.0.2")).toBe(0);
    // Several at once (an upload of 3 files) fit only whole.
    expect(await wa.take("10.0.0.2", 8)).toBe(0);
    expect(await wb.take("10.0.0.2", 3)).toBeGreaterThan(0);
    expect(await wb.take("10.0.0.2", 2)).toBe(0);
  });

  test("a window starts over once it has passed", async () => {
    const [a, b] = await cluster.two();
    const wa = a.limits.window("reports", 1, 200);
    const wb = b.limits.window("reports", 1, 200);
    expect(await wa.take("u1")).toBe(0);
    const wait = await wb.take("u1");
    expect(wait).toBeGreaterThan(0);
    await Bun.sleep(wait * 1000 + 20); // the wait it answered, no more
    expect(await wb.take("u1")).toBe(0);
  });

  test("a sliding window of 10 (failed logins): 40 concurrent reservations from two instances, exactly 10; a release gives one back", async () => {
    const [a, b] = await cluster.two();
    const la = a.limits.sliding("logins", 60_000);
    const lb = b.limits.sliding("logins", 60_000);
    const keys = [
      ["user:1|address:10.0.0.1", 10],
      ["user:1", 50],
    ] as const;
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? la : lb).reserve(keys)));
    const held = answers.filter((r) => "release" in r);
    expect(held.length).toBe(10);
    const refused = answers.find((r) => "retryAfter" in r);
    expect(refused && "retryAfter" in refused ? refused.retryAfter : 0).toBeGreaterThan(59);
    const first = held[0]!;
    if (!("release" in first)) throw new Error("unreachable");
    await first.release();
    await first.release(); // twice gives back one
    expect("release" in (await la.reserve(keys))).toBe(true);
    expect("retryAfter" in (await lb.reserve(keys))).toBe(true);
    // The account's own total counted every reservation: 40 more from other addresses hit 50.
    const others = await Promise.all(Array.from({ length: 45 }, (_, i) => la.reserve([[`user:1|address:10.1.0.${i}`, 10], ["user:1", 50]])));
    expect(others.filter((r) => "release" in r).length).toBe(40);
  });

  test("slots (socket caps): 20 concurrent acquisitions from two instances under a cap of 3 take exactly 3; releasing frees one", async () => {
    const [a, b] = await cluster.two();
    const sa = a.limits.slots("sockets");
    const sb = b.limits.slots("sockets");
    const cap = [
      ["user:5", 3],
      ["address:10.0.0.5", 50],
    ] as const;
    const taken = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? sa : sb).acquire(cap)));
    expect(taken.filter(Boolean).length).toBe(3);
    expect(await sa.held("user:5")).toBe(3);
    expect(await sb.held("address:10.0.0.5")).toBe(3);
    const holder = taken.findIndex(Boolean) % 2 ? sa : sb;
    // A release is sent, not awaited (a closing socket does not wait for it): the other
    // instance's connection to Redis may ask before it lands, so it asks once it has.
    holder.release(["user:5", "address:10.0.0.5"]);
    const other = holder === sa ? sb : sa;
    await until(async () => (await other.held("user:5")) === 2 && (await other.held("address:10.0.0.5")) === 2, "the release counted");
    expect(await other.acquire(cap)).toBe(true);
    expect(await sa.acquire(cap)).toBe(false);
  });
});
