// The server as the README starts it: a child process with PORT and DATA_DIR set.
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { engine } from "../../src/storage/engine.ts";
import { removeServerData, spawnServer, startServer } from "../support/server-process.ts";
import { connect } from "../support/ws.ts";

afterAll(removeServerData);

describe("start-up and shutdown", () => {
  test("a bad setting stops start-up with one clear line and exit code 1", async () => {
    const { proc } = spawnServer({ env: { PORT: "not-a-port" } });
    expect(await proc.exited).toBe(1);
    const stderr = await new Response(proc.stderr).text();
    expect(stderr.trim().split("\n")).toHaveLength(1);
    expect(stderr).toContain("PORT");
  });

  test("starts on PORT with DATA_DIR, keeps a generated secret there owner-only, and SIGTERM closes sockets with 1001", async () => {
    // No JWT_SECRET: the server makes one and keeps it in DATA_DIR.
    const server = await startServer({ env: { JWT_SECRET: "" } });
    const { proc, port, dataDir } = server;
    try {
      expect(await (await fetch(`${server.url}/healthz`)).json()).toEqual({ ok: true });
      expect(statSync(join(dataDir, "secret.key")).mode & 0o777).toBe(0o600);
      // The data is in DATA_DIR's SQLite file, or (the suite's PostgreSQL pass) in PostgreSQL only.
      expect(existsSync(join(dataDir, "chat.sqlite"))).toBe(engine === "sqlite");
      const r = await fetch(`http://127.0.0.1:${port}/api/guest/create`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ gender: "female", adult: true }),
      });
      const { data } = (await r.json()) as { data: { token: string } };
      // On SQLite the WAL checkpointer runs (src/wal/) and reports to /metrics (loopback needs no
      // token); PostgreSQL checkpoints by itself, and nothing reports a WAL there.
      const metrics = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
      expect(/^webchat_wal_frames \d+$/m.test(metrics)).toBe(engine === "sqlite");
      expect(/^webchat_wal_restarts_total 0$/m.test(metrics)).toBe(engine === "sqlite");
      const socket = await connect(`ws://127.0.0.1:${port}`, data.token);
      proc.kill("SIGTERM");
      expect((await socket.closed).code).toBe(1001);
      expect(await proc.exited).toBe(0);
    } finally {
      await server.kill();
    }
  }, 60_000);

  test("a message acknowledged before a crash is still there after a restart", async () => {
    const first = await startServer({ env: { JWT_SECRET: "" } });
    const { proc, port, dataDir } = first;
    let token = "";
    try {
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
      const again = await startServer({ dataDir, env: { JWT_SECRET: "" } });
      try {
        const r = await fetch(`${again.url}/api/messages/${a.user.id}`, { headers: { authorization: `Bearer ${token}` } });
        const body = (await r.json()) as { messages: { content: string }[] };
        expect(body.messages.map((m) => m.content)).toEqual(["survives"]);
      } finally {
        await again.kill();
      }
    } finally {
      await first.kill();
    }
  }, 90_000);
});
