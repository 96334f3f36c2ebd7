// The real server for the browser suites (tests/support/server-process.ts, with the client built
// first if it has never been), loopback only: no ICE servers.
//
//   const server = await startServerForBrowsers();  // extra env: startServerForBrowsers({ SIGNUP_RATE_LIMIT: "5" })
//   await page.goto(server.url + "/");
//   await server.stop();
import { existsSync } from "node:fs";
import { join } from "node:path";
import { MANIFEST_FILE } from "../../../src/pages/assets/manifest.ts";
import { startServer, type ServerProcess } from "../../support/server-process.ts";

export type RunningServer = Pick<ServerProcess, "url" | "port" | "dataDir" | "output" | "stop">;

const root = join(import.meta.dir, "..", "..", "..");

export async function ensureClientBuild(): Promise<void> {
  if (existsSync(MANIFEST_FILE)) return;
  const build = Bun.spawn([process.execPath, "scripts/build-client.ts"], { cwd: root, stdout: "inherit", stderr: "inherit" });
  if ((await build.exited) !== 0) throw new Error("client build failed");
}

export async function startServerForBrowsers(env: Record<string, string> = {}): Promise<RunningServer> {
  await ensureClientBuild();
  // Info logs: a failed walk shows them, and postgres.e2e.ts reads the listening line. Generous:
  // on a loaded 2-core machine starting Bun and opening the database can take long.
  return startServer({ env: { ICE_SERVERS: "[]", LOG_LEVEL: "info", ...env }, healthyWithinMs: 60_000 });
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
