// The bus and lease ports' contract (src/cluster/ports.ts), against both engines: a message on the
// bus reaches every instance once (the sender's own listeners at once), in order; one instance
// holds a lease at a time, and another takes it over once the holder stops renewing.
import { describe, expect, test } from "bun:test";
import { whileLeader } from "../../src/cluster/leader.ts";
import { enginePerTest, engines } from "../support/cluster.ts";
import { until } from "../support/until.ts";

describe.each(engines)("bus and lease (%s)", (_name, make) => {
  const cluster = enginePerTest(make);

  test("a ban published on one instance reaches every instance once, in order; the sender's own listener at once", async () => {
    const instances = await cluster.instances(3);
    const distinct = [...new Set(instances)];
    const heard = distinct.map(() => [] as unknown[]);
    distinct.forEach((ports, i) => ports.bus.subscribe("ban", (data) => void heard[i]!.push(data)));
    const stop = distinct[0]!.bus.subscribe("other", () => {
      throw new Error("another topic must not be heard");
    });
    for (let i = 0; i < 100; i++) instances[0]!.bus.publish("ban", { userId: i });
    expect(heard[0]!.length).toBe(100); // at once, before anything went through Redis
    await until(() => heard.every((h) => h.length >= 100), "100 bans on every instance");
    await Promise.all(distinct.map((p) => p.settled()));
    for (const h of heard) expect(h).toEqual(Array.from({ length: 100 }, (_, i) => ({ userId: i })));
    stop();
  });

  test("one holder at a time; when it stops renewing another takes over, and a release hands over at once", async () => {
    const [a, b] = await cluster.instances(3);
    const la = a!.lease("sweep", 300);
    const lb = b!.lease("sweep", 300);
    expect(await la.hold()).toBe(true);
    expect(await la.hold()).toBe(true); // renewing
    if (!cluster.engine.shared) return expect(await lb.hold()).toBe(true); // one process: it is the only holder
    expect(await lb.hold()).toBe(false);
    // a stops renewing: within the lease's time b holds it, and then a does not.
    let taken = false;
    const started = Date.now();
    while (!taken && Date.now() - started < 5000) {
      taken = await lb.hold();
      if (!taken) await Bun.sleep(25);
    }
    expect(taken).toBe(true);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(await la.hold()).toBe(false);
    await lb.release();
    expect(await la.hold()).toBe(true);
  });
});

describe.each(engines)("work under a lease (%s)", (_name, make) => {
  const cluster = enginePerTest(make);

  test("runs on one instance at a time, and moves to another when the holder stops", async () => {
    const [a, b] = await cluster.two();
    const running = new Set<string>();
    const work = (name: string) => () => {
      running.add(name);
      return () => void running.delete(name);
    };
    const stopA = whileLeader(a.lease("sweep", 600), 600, work("a"));
    await until(() => running.has("a"), "the work running on a");
    const stopB = whileLeader(b.lease("sweep", 600), 600, work("b"));
    if (!cluster.engine.shared) {
      // One process: the lease is always held, the work runs wherever it is asked for.
      stopA();
      stopB();
      return;
    }
    // b checks every 200 ms; a renews every 200 ms: b never starts while a holds it.
    const marker = whileLeader(b.lease("marker", 600), 600, work("marker"));
    await until(() => running.has("marker"), "a marker lease held after b's first check");
    expect([...running].sort()).toEqual(["a", "marker"]);
    stopA(); // releases: b takes over at its next check
    await until(() => running.has("b") && !running.has("a"), "the work moving to b");
    stopB();
    marker();
    expect(running.size).toBe(0);
  });
});
