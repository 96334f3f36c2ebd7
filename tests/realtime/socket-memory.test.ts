import { expect, test } from "bun:test";
import { heapPerSocket } from "./socket-memory.ts";

// Measured at 1.4 KB after /ws stopped going through Elysia's `.ws()` (4.9 KB before), 1.06 KB
// once a socket's session id stopped holding its whole token (issue 11). About half of that is
// code compiled for the first sockets, spread over the 2,000. The bound leaves room for GC timing;
// it should catch a copy of the request, a closure or a held token per socket coming back.
test("an idle signed-in socket adds less than 1.5 KB to the server's heap (2,000 sockets)", async () => {
  const { app } = await heapPerSocket(2000);
  expect(app).toBeLessThan(1.5 * 1024);
}, 60_000);
