import { expect, test } from "bun:test";
import { join } from "node:path";

// Measured at 1.4 KB after /ws stopped going through Elysia's `.ws()` (4.9 KB before), 1.06 KB
// once a socket's session id stopped holding its whole token (issue 11). About half of that is
// code compiled for the first sockets, spread over the 2,000. The bound leaves room for GC timing;
// it should catch a copy of the request, a closure or a held token per socket coming back.
// The measurement runs in a process of its own: inside the whole suite, what earlier test files
// left behind (their timers, caches and compiled code) moved the heap by up to 0.5 KB a socket.
test("an idle signed-in socket adds less than 1.5 KB to the server's heap (2,000 sockets)", async () => {
  const child = Bun.spawn([process.execPath, join(import.meta.dir, "socket-memory.ts"), "2000", "--json"], { stdout: "pipe", stderr: "inherit" });
  const [output, code] = await Promise.all([new Response(child.stdout).text(), child.exited]);
  expect(code).toBe(0);
  const { app } = JSON.parse(output.trim().split("\n").at(-1)!) as { app: number };
  expect(app).toBeLessThan(1.5 * 1024);
  // 2,000 guests made, 2,000 sockets opened twice and every presence batch awaited: about 10 s
  // on a quiet machine here; past 60 s in a whole run beside a CPU-stress loop and other suites.
}, 240_000);
