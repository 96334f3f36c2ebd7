// Issue 18 item 7 as the process sees it: unauthenticated 20 MB JSON bodies cost the server no
// memory, because the token is checked before a byte of the body is read. Measured on the
// server as the README starts it (a child process), by its resident set size in /proc.
import { afterAll, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { removeServerData, startServer } from "../support/server-process.ts";

afterAll(removeServerData);

/** The child's resident set size in MB. */
const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? NaN) / 1024;

const BODY_BYTES = 20 * 1024 * 1024;
const ROUNDS = 3;
const AT_ONCE = 3;

test("unauthenticated 20 MB JSON bodies get 401 before a byte is read: the server's memory does not grow", async () => {
  const server = await startServer({ env: { JWT_SECRET: "", LOG_LEVEL: "error" } });
  const { proc, url } = server;
  try {
    const body = new Uint8Array(BODY_BYTES);
    body.set(new TextEncoder().encode('{"name":"'));
    body.fill(0x78, 9, BODY_BYTES - 2);
    body.set(new TextEncoder().encode('"}'), BODY_BYTES - 2);
    const put = () =>
      fetch(`${url}/api/users/profile`, { method: "PUT", headers: { "content-type": "application/json" }, body }).then(
        async (r) => `${r.status} ${(await r.text()).slice(0, 200)}`,
        (error: Error) => `failed: ${error.message}`,
      );
    // The route compiled and the process settled before the baseline.
    for (let i = 0; i < 3; i++) await fetch(`${url}/api/users/profile`, { method: "PUT", headers: { "content-type": "application/json" }, body: "{}" });
    const before = rssMb(proc.pid);
    let peak = before;
    const answers: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      // Not timed: how fast the refusals come is the machine's; the memory below shows nothing was read.
      answers.push(...(await Promise.all(Array.from({ length: AT_ONCE }, put))));
      peak = Math.max(peak, rssMb(proc.pid));
    }
    expect(answers.filter((a) => !a.startsWith("401 ") || !a.includes("unauthorized"))).toEqual([]);
    // Reading even one of them would add 20 MB or more (the body, then its text).
    console.log(`RSS ${before.toFixed(1)} MB before, ${peak.toFixed(1)} MB at most after ${ROUNDS * AT_ONCE} bodies`);
    expect(peak - before).toBeLessThan(8);
  } finally {
    await server.kill();
  }
}, 60_000);
