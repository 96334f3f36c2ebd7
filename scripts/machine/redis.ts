// After the packages: the tests' Redis must also answer. The cluster tests (tests/cluster/) use
// REDIS_TEST_URL (default redis://127.0.0.1:6379) with a key prefix of their own. Where it does not
// answer and this is root, a Redis that keeps nothing on disk is started on that port; otherwise,
// or if that was not enough, the run stops with one line naming the fix.
import { connect } from "node:net";

export const REDIS_TEST_URL = process.env.REDIS_TEST_URL ?? "redis://127.0.0.1:6379";

/** One PING over a plain socket: true when the server answers PONG (or asks for a password it was given). */
export function ping(url: string, timeoutMs = 3000): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname || "127.0.0.1", port: Number(port || 6379) });
    const done = (answer: boolean) => {
      socket.destroy();
      resolve(answer);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once("error", () => done(false));
    socket.once("connect", () => socket.write("PING\r\n"));
    socket.once("data", (data) => done(data.toString().startsWith("+PONG")));
  });
}

export function stopLine(url: string): string {
  return `Redis does not answer the tests at ${url}: start one (redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no), or point REDIS_TEST_URL at a Redis 7 that does.`;
}

/** True when the tests' Redis answers; false after printing the one line that says why not. */
export async function ensureRedis(url = REDIS_TEST_URL): Promise<boolean> {
  if (await ping(url)) return true;
  const { hostname, port } = new URL(url);
  const local = hostname === "127.0.0.1" || hostname === "localhost";
  if (process.getuid?.() === 0 && local && Bun.which("redis-server")) {
    console.log(`Starting Redis for the tests on port ${port || 6379} (nothing kept on disk)`);
    const start = Bun.spawn(["redis-server", "--daemonize", "yes", "--bind", "127.0.0.1", "--port", port || "6379", "--save", "", "--appendonly", "no"], { stdout: "ignore", stderr: "inherit" });
    await start.exited;
    for (let i = 0; i < 50; i++) {
      if (await ping(url)) return true;
      await Bun.sleep(100);
    }
  }
  console.error(stopLine(url));
  return false;
}
