import { expect, test } from "bun:test";
import { sampleEventLoopLag } from "../../src/observability/event-loop-lag.ts";
import { MetricsRegistry } from "../../src/observability/registry.ts";
import { afterTimers, until as waitFor } from "../support/until.ts";

test("event loop lag records how long the loop was blocked", async () => {
  const registry = new MetricsRegistry();
  const lag = registry.histogram("lag_seconds", "Lag.", [0.001, 0.01, 0.1, 1]);
  const stop = sampleEventLoopLag(lag, 10);
  const until = performance.now() + 80;
  while (performance.now() < until) {} // blocks the loop while the 10 ms timer is due
  // The sampler's timer, late by the block, records it when it finally runs.
  await waitFor(() => /lag_seconds_count [1-9]/.test(registry.render()), "the late sample");
  stop();
  const text = registry.render();
  const sum = Number(/lag_seconds_sum (\S+)/.exec(text)![1]);
  expect(sum).toBeGreaterThan(0.05);
  expect(text).toMatch(/lag_seconds_bucket\{le="0.1"\} [1-9]/);
  const count = Number(/lag_seconds_count (\d+)/.exec(text)![1]);
  // A timer due after the sampler's next tick (every 10 ms): a sampler still running would have counted.
  await afterTimers(40);
  expect(Number(/lag_seconds_count (\d+)/.exec(registry.render())![1])).toBe(count);
});
