import { describe, expect, test } from "bun:test";
import { AsyncLocalStorage } from "node:async_hooks";
import { PresenceRows, type RowChange } from "../../src/realtime/presence-rows.ts";

/** A write that the test answers: each call waits until the test resolves or refuses it. */
function controlledWrites() {
  const calls: { rows: Map<number, RowChange>; ok(): void; refuse(): void }[] = [];
  const write = (rows: ReadonlyMap<number, RowChange>) =>
    new Promise<void>((resolve, reject) => calls.push({ rows: new Map(rows), ok: resolve, refuse: () => reject(new Error("database away")) }));
  return { calls, write };
}

const changes = (...entries: [number, boolean][]) => new Map(entries);
const flush = () => Bun.sleep(0);

describe("presence rows", () => {
  test("a batch is written only after the one before it has finished", async () => {
    const { calls, write } = controlledWrites();
    const rows = new PresenceRows(write, () => {});
    void rows.save(changes([1, true]), 10);
    void rows.save(changes([1, false]), 20);
    await flush();
    expect(calls).toHaveLength(1);
    calls[0]!.ok();
    await flush();
    expect(calls).toHaveLength(2);
    expect([...calls[1]!.rows]).toEqual([[1, { online: false, at: 20 }]]);
    calls[1]!.ok();
  });

  test("a refused batch goes with the next one, whose change wins for the same user, and the frames still leave each time", async () => {
    const { calls, write } = controlledWrites();
    const failures: string[] = [];
    const announced: number[] = [];
    const rows = new PresenceRows(write, (what) => failures.push(what), 60_000);
    void rows.save(changes([1, true], [2, true]), 10, () => announced.push(10));
    await flush();
    calls[0]!.refuse();
    await flush();
    expect(failures).toEqual(["not saved"]);
    expect(announced).toEqual([10]);
    expect(rows.waiting).toBe(2);

    const second = rows.save(changes([2, false], [3, true]), 20, () => announced.push(20));
    await flush();
    expect([...calls[1]!.rows].sort(([a], [b]) => a - b)).toEqual([
      [1, { online: true, at: 10 }],
      [2, { online: false, at: 20 }],
      [3, { online: true, at: 20 }],
    ]);
    calls[1]!.ok();
    await second;
    expect(rows.waiting).toBe(0);
    expect(announced).toEqual([10, 20]);
    rows.stop();
  });

  test("with no batch after it, a refused one is written again on its own after the retry time, until it is saved", async () => {
    const { calls, write } = controlledWrites();
    const rows = new PresenceRows(write, () => {}, 30);
    void rows.save(changes([7, false]), 10);
    await flush();
    calls[0]!.refuse();
    await Bun.sleep(80);
    expect(calls).toHaveLength(2);
    expect([...calls[1]!.rows]).toEqual([[7, { online: false, at: 10 }]]);
    calls[1]!.refuse();
    await Bun.sleep(80);
    expect(calls).toHaveLength(3);
    calls[2]!.ok();
    await flush();
    expect(rows.waiting).toBe(0);
    await Bun.sleep(80);
    expect(calls).toHaveLength(3);
  });

  test("once stopped (shutting down), nothing is retried", async () => {
    const { calls, write } = controlledWrites();
    const rows = new PresenceRows(write, () => {}, 30);
    void rows.save(changes([7, false]), 10);
    await flush();
    calls[0]!.refuse();
    await flush();
    rows.stop();
    await Bun.sleep(80);
    expect(calls).toHaveLength(1);
  });

  test("frames that throw while leaving do not stop the batches after them", async () => {
    const { calls, write } = controlledWrites();
    const failures: string[] = [];
    const rows = new PresenceRows(write, (what) => failures.push(what));
    void rows.save(changes([1, true]), 10, () => {
      throw new Error("a listener broke");
    });
    const second = rows.save(changes([1, false]), 20);
    await flush();
    calls[0]!.ok();
    await flush();
    calls[1]!.ok();
    await second;
    expect(failures).toEqual(["not announced"]);
    expect(calls).toHaveLength(2);
  });
});

describe("presence rows and the caller's async context", () => {
  test("a batch announced from inside a transaction's context is written, and retried, outside it", async () => {
    const storage = new AsyncLocalStorage<string>();
    const seen: (string | undefined)[] = [];
    let refuse = true;
    const rows = new PresenceRows(
      async () => {
        seen.push(storage.getStore());
        if (refuse) throw new Error("database away");
      },
      () => {},
      30,
    );
    await storage.run("a transaction", () => rows.save(changes([1, true]), 10));
    refuse = false;
    await Bun.sleep(80);
    expect(seen).toEqual([undefined, undefined]);
    rows.stop();
  });
});
