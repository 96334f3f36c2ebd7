// Issue 18 item 7 as the process sees it: unauthenticated 20 MB JSON bodies cost the server no
// memory, because the token is checked before a byte of the body is read. Measured on the
// server as the README starts it (a child process), by its resident set size in /proc.
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const root = join(import.meta.dir, "..", "..");
const dataDir = mkdtempSync(join(tmpdir(), "webchat-bodymem-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const freePort = () => {
  const s = Bun.serve({ port: 0, fetch: () => new Response() });
  const port = s.port!;
  s.stop(true);
  return port;
};

/** The child's resident set size in MB. */
const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? NaN) / 1024;

async function waitHealthy(url: string, deadlineMs = 15_000) {
  const until = Date.now() + deadlineMs;
  while (Date.now() < until) {
    if (await fetch(`${url}/healthz`).then((r) => r.ok, () => false)) return;
    await Bun.sleep(100);
  }
  throw new Error("server did not become healthy");
}

const BODY_BYTES = 20 * 1024 * 1024;
const ROUNDS = 3;
const AT_ONCE = 3;

test("unauthenticated 20 MB JSON bodies get 401 at once and the server's memory does not grow", async () => {
  const port = freePort();
  const url = `http://127.0.0.1:${port}`;
  const proc = Bun.spawn([process.execPath, "src/server.ts"], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dataDir, JWT_SECRET: "", LOG_LEVEL: "error" },
    stdout: "ignore",
    stderr: "ignore",
  });
  try {
    await waitHealthy(url);
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
      const started = performance.now();
      answers.push(...(await Promise.all(Array.from({ length: AT_ONCE }, put))));
      // Three bodies that were read would take seconds on a busy machine; refused ones, milliseconds.
      expect(performance.now() - started).toBeLessThan(10_000);
      peak = Math.max(peak, rssMb(proc.pid));
    }
    expect(answers.filter((a) => !a.startsWith("401 ") || !a.includes("unauthorized"))).toEqual([]);
    // Reading even one of them would add 20 MB or more (the body, then its text).
    console.log(`RSS ${before.toFixed(1)} MB before, ${peak.toFixed(1)} MB at most after ${ROUNDS * AT_ONCE} bodies`);
    expect(peak - before).toBeLessThan(8);
  } finally {
    proc.kill("SIGKILL");
    await proc.exited;
  }
}, 60_000);
