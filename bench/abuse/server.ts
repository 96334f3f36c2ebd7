// The server under test, as a child process (`bun src/server.ts`) on 127.0.0.1 with a temporary
// DATA_DIR, so its memory is measured apart from the clients'. It runs with today's defaults but
// two: TRUST_PROXY, so that clients can appear to come from many addresses (X-Forwarded-For), and a
// high SIGNUP_RATE_LIMIT, so that the bench can make its accounts.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Subprocess } from "bun";

export interface BenchServer {
  port: number;
  http: string;
  /** The last lines the server wrote to stderr. */
  log(): string;
  ws: string;
  /** Resident memory of the server process, in MB. */
  rssMb(): number;
  stop(): Promise<void>;
}

export const BENCH_ENV = { TRUST_PROXY: "true", SIGNUP_RATE_LIMIT: "1000000" };

function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

/** Reads a stream to its end, keeping its last 4 KB (the server's log is shown only on failure). */
function tail(stream: ReadableStream<Uint8Array>, onText: (all: string) => void = () => {}): () => string {
  let kept = "";
  const decoder = new TextDecoder();
  void (async () => {
    for await (const chunk of stream) {
      kept = (kept + decoder.decode(chunk)).slice(-4096);
      onText(kept);
    }
  })();
  return () => kept;
}

function portFrom(child: Subprocess<"ignore", "pipe", "pipe">, errors: () => string, limitMs: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server did not start within ${limitMs / 1000} s: ${errors().trim()}`)), limitMs);
    void child.exited.then(() => reject(new Error(`the server exited: ${errors().trim()}`)));
    tail(child.stdout, (text) => {
      const port = /listening(?: on | url=)http:\/\/[^:\s]+:(\d+)/.exec(text)?.[1];
      if (!port) return;
      clearTimeout(timer);
      resolve(Number(port));
    });
  });
}

export async function startServer(extraEnv: Record<string, string> = {}): Promise<BenchServer> {
  const dataDir = mkdtempSync(join(tmpdir(), "webchat-abuse-"));
  const child = Bun.spawn([process.execPath, join(import.meta.dir, "..", "..", "src", "server.ts")], {
    env: { ...process.env, ...BENCH_ENV, ...extraEnv, DATA_DIR: dataDir, HOST: "127.0.0.1", PORT: "0", JWT_SECRET: "abuse-bench-secret-abuse-bench-secret!!" },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const errors = tail(child.stderr);
  const port = await portFrom(child, errors, 30_000);
  return {
    port,
    http: `http://127.0.0.1:${port}`,
    ws: `ws://127.0.0.1:${port}`,
    log: errors,
    rssMb: () => rssOf(child.pid),
    async stop() {
      child.kill("SIGKILL");
      await child.exited;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Memory the kernel holds in TCP buffers, both ends of every loopback connection together: what
 * a non-reading client makes the machine hold before the server's own queue grows.
 */
export function tcpBuffersMb(): number {
  const pages = Number(/TCP:.*\bmem (\d+)/.exec(readFileSync("/proc/net/sockstat", "utf8"))?.[1] ?? 0);
  return (pages * 4096) / 1024 / 1024;
}

/** Samples a figure every 200 ms until stopped; answers the highest value seen. */
export function peakSampler(read: () => number): () => number {
  let peak = read();
  const timer = setInterval(() => {
    peak = Math.max(peak, read());
  }, 200);
  return () => {
    clearInterval(timer);
    return Math.max(peak, read());
  };
}
