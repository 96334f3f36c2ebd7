// Starts the real server (`bun src/server.ts`) as a child process on a port the OS picks, with a
// temporary DATA_DIR and no ICE servers (loopback only), builds the client first if it has never
// been built, and waits for GET /healthz. `stop()` kills it and removes the data.
//
//   const server = await startServer();          // extra env: startServer({ SIGNUP_RATE_LIMIT: "5" })
//   await page.goto(server.url + "/");
//   await server.stop();
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MANIFEST_FILE } from "../../../src/pages/assets/manifest.ts";
import { stopChild } from "../../support/children.ts";

export interface RunningServer {
  url: string;
  port: number;
  dataDir: string;
  /** Everything the server printed, for failure messages. */
  output(): string;
  stop(): Promise<void>;
}

const root = join(import.meta.dir, "..", "..", "..");

export async function ensureClientBuild(): Promise<void> {
  if (existsSync(MANIFEST_FILE)) return;
  const build = Bun.spawn([process.execPath, "scripts/build-client.ts"], { cwd: root, stdout: "inherit", stderr: "inherit" });
  if ((await build.exited) !== 0) throw new Error("client build failed");
}

export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  await ensureClientBuild();
  const dataDir = mkdtempSync(join(tmpdir(), "webchat-e2e-"));
  const child = Bun.spawn([process.execPath, "src/server.ts"], {
    cwd: root,
    env: { ...process.env, PORT: "0", HOST: "127.0.0.1", DATA_DIR: dataDir, ICE_SERVERS: "[]", PRESENCE_BATCH_SECONDS: "0", ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  let output = "";
  const decoder = new TextDecoder();
  const collect = async (stream: ReadableStream<Uint8Array>) => {
    for await (const chunk of stream) output += decoder.decode(chunk);
  };
  void collect(child.stdout);
  void collect(child.stderr);

  const stop = async () => {
    await stopChild(child);
    rmSync(dataDir, { recursive: true, force: true });
  };

  // PORT=0: the server prints the port it got ("Web Chat listening url=http://127.0.0.1:PORT", text or JSON logs).
  // Generous: on a loaded 2-core machine starting Bun and opening the database can take long.
  const deadline = Date.now() + 60_000;
  let port = 0;
  while (Date.now() < deadline) {
    port = Number(/listening\b.*?http:\/\/[^:\s"]+:(\d+)/.exec(output)?.[1] ?? 0);
    if (port) {
      const ok = await fetch(`http://127.0.0.1:${port}/healthz`).then((r) => r.ok, () => false);
      if (ok) return { url: `http://127.0.0.1:${port}`, port, dataDir, output: () => output, stop };
    }
    if (child.exitCode !== null) break;
    await Bun.sleep(50);
  }
  await stop();
  throw new Error(`server did not start:\n${output}`);
}

/** A gauge from the server's /metrics (served to loopback without a token). */
export async function serverGauge(server: Pick<RunningServer, "url">, name: string): Promise<number> {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  const line = new RegExp(`^${name} (\\S+)$`, "m").exec(text);
  if (!line) throw new Error(`no ${name} in /metrics`);
  return Number(line[1]);
}

/**
 * Waits until the server holds no open /ws socket and nobody waits in Video Roulette: what the
 * browsers a test closed had open is gone on the server's side too.
 */
export async function serverIdle(server: Pick<RunningServer, "url">, withinMs = 20_000): Promise<void> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const [sockets, waiting] = [await serverGauge(server, "webchat_sockets_open"), await serverGauge(server, "webchat_roulette_waiting")];
    if (sockets === 0 && waiting === 0) return;
    if (Date.now() > deadline) throw new Error(`the server still has ${sockets} sockets open and ${waiting} waiting in Video Roulette after ${withinMs} ms`);
    await Bun.sleep(20);
  }
}
