// The decode queue on its own: how many run, who goes next, and when it answers busy.
import { describe, expect, test } from "bun:test";
import { AppError } from "../../src/http/errors.ts";
import { DecodeQueue } from "../../src/uploads/decode-queue.ts";
import { makeTestApp, registerUser } from "../support/app.ts";
import { fileOf, pngBytes, uploadForm } from "./fixtures.ts";

/** A job that runs until `finish` is called, recording that it started. */
function gated(log: string[], name: string) {
  let finish = () => {};
  const done = new Promise<void>((resolve) => (finish = resolve));
  return { job: async () => (log.push(name), await done, name), finish: () => finish() };
}

/** Lets every job the queue has started or resumed run up to its first wait: promise callbacks all run before the next turn. */
const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("DecodeQueue", () => {
  test("runs at most two at once and one per owner, so a second owner never waits behind the first", async () => {
    const queue = new DecodeQueue({ running: 2, waiting: 10, waitingPerOwner: 10 });
    const log: string[] = [];
    const [a1, a2, b1] = [gated(log, "a1"), gated(log, "a2"), gated(log, "b1")];
    const runs = [queue.run("a", a1.job), queue.run("a", a2.job), queue.run("b", b1.job)];
    await flush();
    expect(log).toEqual(["a1", "b1"]);
    a1.finish();
    await flush();
    expect(log).toEqual(["a1", "b1", "a2"]);
    a2.finish();
    b1.finish();
    expect(await Promise.all(runs)).toEqual(["a1", "a2", "b1"]);
    expect(queue.stats).toEqual({ running: 0, waiting: 0 });
  });

  test("answers 503 busy with a retry time when one owner has too many waiting or everyone has", async () => {
    const queue = new DecodeQueue({ running: 1, waiting: 2, waitingPerOwner: 1 });
    const log: string[] = [];
    const first = gated(log, "first");
    const running = queue.run("a", first.job);
    const waiting = queue.run("a", async () => "second");
    const refused = await queue.run("a", async () => "third").catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ status: 503, code: "busy", extra: { retryAfter: 5 } });
    const other = queue.run("b", async () => "b");
    const full = await queue.run("c", async () => "c").catch((error: unknown) => error);
    expect(full).toMatchObject({ status: 503, code: "busy" });
    first.finish();
    expect(await Promise.all([running, waiting, other])).toEqual(["first", "second", "b"]);
  });

  test("frees the slot of a job that fails", async () => {
    const queue = new DecodeQueue({ running: 1, waiting: 1, waitingPerOwner: 1 });
    await expect(queue.run("a", async () => Promise.reject(new Error("broken")))).rejects.toThrow("broken");
    expect(await queue.run("a", async () => "next")).toBe("next");
  });
});

describe("an upload when decoding is full", () => {
  test("answers 503 busy with Retry-After and stores nothing", async () => {
    const t = makeTestApp();
    try {
      const [alice, bob] = [await registerUser(t), await registerUser(t)];
      t.ctx.uploads.decoder = new DecodeQueue({ running: 1, waiting: 0, waitingPerOwner: 0 });
      const blocker = gated([], "blocker");
      const held = t.ctx.uploads.decoder.run("someone-else", blocker.job);
      const res = await t.call("POST", "/api/messages/upload", { token: alice.token, body: uploadForm(bob.user.id, "file", [fileOf(await pngBytes(), "p.png")]) });
      expect(res.status).toBe(503);
      expect(res.body.code).toBe("busy");
      expect(res.headers.get("retry-after")).toBe("5");
      blocker.finish();
      await held;
      const after = await t.call("GET", `/api/messages/${bob.user.id}`, { token: alice.token });
      expect(after.body.messages).toHaveLength(0);
    } finally {
      await t.close();
    }
  });
});
