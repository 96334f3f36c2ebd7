import { expect, test } from "bun:test";
import { heapPerSocket } from "./socket-memory.ts";

// Measured at 1.4 KB after /ws stopped going through Elysia's `.ws()` (4.9 KB before, issue 11).
// The bound is loose on purpose: heap figures move with GC timing, and this should catch a
// per-socket copy of the request or a closure per socket coming back, not a few bytes.
test("an idle signed-in socket adds less than 2.5 KB to the server's heap (2,000 sockets)", async () => {
  const { app } = await heapPerSocket(2000);
  expect(app).toBeLessThan(2.5 * 1024);
}, 60_000);
