// The server as the README starts it: a child process with PORT and DATA_DIR set.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connect } from "../support/ws.ts";

const root = join(import.meta.dir, "..", "..");
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function start(env: Record<string, string>) {
  const dataDir = mkdtempSync(join(tmpdir(), "webchat-start-"));
  dirs.push(dataDir);
  const proc = Bun.spawn([process.execPath, "src/server.ts"], {
    cwd: root,
    env: { ...process.env, DATA_DIR: dataDir, JWT_SECRET: "", ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  return { proc, dataDir };
}

async function waitHealthy(port: number, deadlineMs = 10_000) {
  const until = Date.now() + deadlineMs;
  while (Date.now() < until) {
    try {
      const r = await fetch(`http://127.0.0.1:${port}/healthz`);
      if (r.ok) return (await r.json()) as unknown;
    } catch {}
    await Bun.sleep(100);
  }
  throw new Error("server did not become healthy");
}

const freePort = () => {
  const s = Bun.serve({ port: 0, fetch: () => new Response() });
  const port = s.port!;
  s.stop(true);
  return port;
};

describe("start-up and shutdown", () => {
  test("a bad setting stops start-up with one clear line and exit code 1", async () => {
    const { proc } = start({ PORT: "not-a-port" });
    expect(await proc.exited).toBe(1);
    const stderr = await new Response(proc.stderr).text();
    expect(stderr.trim().split("\n")).toHaveLength(1);
    expect(stderr).toContain("PORT");
  });

  test("starts on PORT with DATA_DIR, keeps a generated secret there owner-only, and SIGTERM closes sockets with 1001", async () => {
    const port = freePort();
    const { proc, dataDir } = start({ PORT: String(port) });
    try {
      expect(await waitHealthy(port)).toEqual({ ok: true });
      expect(statSync(join(dataDir, "secret.key")).mode & 0o777).toBe(0o600);
      expect(statSync(join(dataDir, "chat.sqlite")).isFile()).toBe(true);
      const r = await fetch(`http://127.0.0.1:${port}/api/guest/create`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ gender: "female", adult: true }),
      });
      const { data } = (await r.json()) as { data: { token: string } };
      // The WAL checkpointer runs (src/wal/) and reports to /metrics (loopback needs no token).
      const metrics = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
      expect(metrics).toMatch(/^webchat_wal_frames \d+$/m);
      expect(metrics).toMatch(/^webchat_wal_restarts_total 0$/m);
      const socket = await connect(`ws://127.0.0.1:${port}`, data.token);
      proc.kill("SIGTERM");
      expect((await socket.closed).code).toBe(1001);
      expect(await proc.exited).toBe(0);
    } finally {
      proc.kill("SIGKILL");
    }
  }, 20_000);

  test("a message acknowledged before a crash is still there after a restart", async () => {
    const port = freePort();
    const { proc, dataDir } = start({ PORT: String(port) });
    let token = "";
    try {
      await waitHealthy(port);
      const make = async () => {
        const r = await fetch(`http://127.0.0.1:${port}/api/guest/create`, { method: "POST", headers: { "content-type": "application/json" }, body: '{"gender":"male","adult":true}' });
        return ((await r.json()) as { data: { token: string; user: { id: number } } }).data;
      };
      const a = await make();
      const b = await make();
      token = b.token;
      const s = await connect(`ws://127.0.0.1:${port}`, a.token);
      const ack = await s.ask("send_message", { receiverId: b.user.id, content: "survives" });
      expect(ack.data.message.id).toBeNumber();
      proc.kill("SIGKILL");
      await proc.exited;
      const again = Bun.spawn([process.execPath, "src/server.ts"], { cwd: root, env: { ...process.env, DATA_DIR: dataDir, PORT: String(port) }, stdout: "ignore", stderr: "ignore" });
      try {
        await waitHealthy(port);
        const r = await fetch(`http://127.0.0.1:${port}/api/messages/${a.user.id}`, { headers: { authorization: `Bearer ${token}` } });
        const body = (await r.json()) as { messages: { content: string }[] };
        expect(body.messages.map((m) => m.content)).toEqual(["survives"]);
      } finally {
        again.kill("SIGKILL");
        await again.exited;
      }
    } finally {
      proc.kill("SIGKILL");
    }
  }, 30_000);
});
