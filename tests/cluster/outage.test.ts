// Redis going away and coming back empty (a restart without persistence), on a throwaway
// redis-server this test starts on a free port (the machine's Redis is never stopped): while it
// is away limits answer 503 `unavailable` (never "allowed", never a crash) and frames are dropped
// (PUB/SUB is at-most-once; clients catch up from the database); once it is back, instances
// re-subscribe by themselves and write back what they hold, so frames and presence work again.
import { expect, test } from "bun:test";
import type { LocalDelivery } from "../../src/cluster/ports.ts";
import { AppError } from "../../src/http/errors.ts";
import { throwawayRedisPerTest } from "../support/cluster.ts";
import { until } from "../support/until.ts";

const redis = throwawayRedisPerTest();

test("Redis restarts empty under traffic: limits refuse with 503 meanwhile, then frames and presence work again by themselves", async () => {
  const { server, engine } = await redis.start();
  const a = engine.instance();
  const b = engine.instance();
  await Promise.all([a.ready(), b.ready()]);
  const heard: string[] = [];
  const delivery: LocalDelivery = { toUser: (_u, text) => void heard.push(text), toSocket() {}, toAll() {}, toWatchers() {} };
  b.fanOut.attach(delivery);
  a.fanOut.attach({ ...delivery, toUser() {} });
  const presenceA = a.presence(0, () => {}, () => {});
  const presenceB = b.presence(0, () => {}, () => {});
  // Many changes before the outage: the restarted Redis numbers its changes from 1 again, far
  // below what a has heard, and they must still count.
  for (let i = 0; i < 20; i++) presenceB.update(100 + i, true);
  b.fanOut.holding(7, true);
  presenceB.update(7, true);
  await b.settled();
  await until(() => presenceA.isAnnounced(7), "user 7 online on a");
  a.fanOut.toUser(7, "before");
  await until(() => heard.includes("before"), "a frame before the outage");

  await server.stop();
  const window = a.limits.window("signups", 10, 60_000);
  const refused = await window.take("10.0.0.1").then(
    () => null,
    (error: unknown) => error,
  );
  expect(refused).toBeInstanceOf(AppError);
  expect((refused as AppError).status).toBe(503);
  expect((refused as AppError).code).toBe("unavailable");
  a.fanOut.toUser(7, "during"); // dropped or delivered later: never a crash

  await server.start();
  // Redis came back empty: b writes back that it holds user 7, a's frames reach b again.
  let n = 0;
  await until(() => {
    a.fanOut.toUser(7, `after ${n++}`);
    return heard.some((text) => text.startsWith("after"));
  }, "frames after Redis came back");
  await until(() => presenceA.isAnnounced(7), "user 7 online again after Redis came back");
  presenceB.update(8, true);
  await until(() => presenceA.isAnnounced(8), "user 8 online, a change numbered afresh after the restart");
  presenceB.update(7, false);
  await until(() => !presenceA.isAnnounced(7), "user 7 offline, a later change after the restart");
  expect(await window.take("10.0.0.1")).toBe(0);
}, 60_000);
