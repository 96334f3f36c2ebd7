// The shutdown drain's bounds (src/shutdown.ts), with a server that never finishes on its own.
import { describe, expect, test } from "bun:test";
import { drainServer } from "../../src/shutdown.ts";

const never = () => new Promise<void>(() => {});

describe("draining the server at shutdown", () => {
  test("returns within the grace, the forced stop's half second and the clean-up time, even if nothing ever finishes", async () => {
    const calls: string[] = [];
    const server = {
      pendingRequests: 3,
      stop(force?: boolean) {
        calls.push(force ? "stop(true)" : "stop(false)");
        return never();
      },
    };
    const started = performance.now();
    const drained = await drainServer(server, () => server.stop(true), () => false, { graceMs: 200, cleanupMs: 300 });
    const took = performance.now() - started;
    expect(drained).toEqual({ cutOff: 3, uploadsSettled: false });
    expect(calls).toEqual(["stop(false)", "stop(true)"]);
    expect(took).toBeGreaterThanOrEqual(200 + 500 + 300 - 5);
    // Returning at all is the point (nothing here ever finishes); the bound only leaves room for a loaded machine's late timers.
    expect(took).toBeLessThan(200 + 500 + 300 + 10_000);
  });

  test("does not wait for the grace when the last request ends first, nor for uploads already settled", async () => {
    let forced = false;
    const server = { pendingRequests: 0, stop: () => Promise.resolve() };
    const started = performance.now();
    // Grace and clean-up far longer than anything a loaded machine adds: finishing well before them shows neither was waited for.
    const drained = await drainServer(server, async () => void (forced = true), () => true, { graceMs: 60_000, cleanupMs: 60_000 });
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(drained).toEqual({ cutOff: 0, uploadsSettled: true });
    expect(forced).toBe(true);
  });
});
