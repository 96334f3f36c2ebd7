// The calls port while Redis is away and after it comes back empty, on a throwaway redis-server
// on a free port (the machine's Redis is never stopped): every step answers 503 `unavailable`
// meanwhile (an ack error, never a 500, never "not busy"), and calls work again by themselves once
// it is back. The calls in progress are written back by the instance that placed them
// (tests/cluster/calls-restart.test.ts has the whole story).
import { expect, test } from "bun:test";
import type { Call } from "../../src/calls/registry.ts";
import { redisCalls } from "../../src/cluster/calls-redis.ts";
import { AppError } from "../../src/http/errors.ts";
import { throwawayRedisPerTest } from "../support/cluster.ts";
import { until } from "../support/until.ts";

const redis = throwawayRedisPerTest();

const call = (callerId: number, receiverId: number): Call => ({ callerId, receiverId, callerSocketId: `s${callerId}`, receiverSocketId: null, answered: false, callerPeerId: "p" });

/** What a step threw, or null when it answered. */
const thrown = (step: unknown) =>
  Promise.resolve(step).then(
    () => null,
    (error: unknown) => error,
  );

test("Redis away: every call step answers 503 unavailable; back empty: calls work again by themselves", async () => {
  const { server, engine } = await redis.start();
  const [pa, pb] = [engine.instance(), engine.instance()];
  await Promise.all([pa.ready(), pb.ready()]);
  const deps = { presentHere: () => false, socketsOf: () => [], shownRow: async () => false };
  const x = redisCalls(pa.redis!, pa.bus, deps);
  const y = redisCalls(pb.redis!, pb.bus, deps);
  expect(await x.start(call(1, 2), 60_000)).toBe(true);

  await server.stop();
  const steps = [x.start(call(3, 4), 60_000), y.answer(1, 2, "tab"), y.decline(1, 2), x.endWith(1), y.isBusy(1), x.present(2), y.tabOpened(2)].map(thrown);
  for (const error of await Promise.all(steps)) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).status).toBe(503);
    expect((error as AppError).code).toBe("unavailable");
  }

  await server.start();
  await until(async () => (await thrown(x.start(call(5, 6), 60_000))) === null, "a call placed after Redis came back", 20_000, 100);
  expect((await y.answer(5, 6, "tab"))?.callerId).toBe(5);
  expect(await x.isBusy(6)).toBe(true);
  // The call placed before the restart was hung up meanwhile (x.endWith above): once Redis is
  // back, x writes it back and ends it (calls-restart.test.ts), so nobody stays busy.
  await until(async () => !(await x.isBusy(1)) && !(await x.isBusy(2)), "the call hung up meanwhile ended", 20_000, 50);
  expect((await x.endWith(6, 5))?.callerId).toBe(5);
}, 60_000);
