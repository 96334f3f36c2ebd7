// `npm test` checks the tests' Redis before the suites (scripts/machine/redis.ts): a PING that a
// real redis-server answers, and none where nothing listens.
import { expect, test } from "bun:test";
import { ping, stopLine } from "../../scripts/machine/redis.ts";
import { freePort } from "../support/ports.ts";

test("a redis-server answers the PING; a port where nothing listens does not, and the stop line names the fix", async () => {
  const port = freePort();
  expect(await ping(`redis://127.0.0.1:${port}`)).toBe(false);
  expect(stopLine(`redis://127.0.0.1:${port}`)).toContain("redis-server --daemonize yes");
  const server = Bun.spawn(["redis-server", "--bind", "127.0.0.1", "--port", String(port), "--save", "", "--appendonly", "no"], { stdout: "ignore", stderr: "ignore" });
  try {
    let answered = false;
    for (let i = 0; i < 100 && !answered; i++) {
      answered = await ping(`redis://127.0.0.1:${port}`);
      if (!answered) await Bun.sleep(50);
    }
    expect(answered).toBe(true);
  } finally {
    server.kill();
    await server.exited;
  }
});

test("something that is not Redis on the port is not taken for one", async () => {
  const server = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data(socket) { socket.write("HTTP/1.1 400 Bad Request\r\n\r\n"); } } });
  try {
    expect(await ping(`redis://127.0.0.1:${server.port}`)).toBe(false);
  } finally {
    server.stop(true);
  }
});
