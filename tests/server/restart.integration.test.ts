// What a restart of the real server keeps and what it forgets (issue 18, items 12 and 13):
// nobody is online until a socket opens, and a roulette partner can still be reported (or
// blocked) by the pairing id for the 10 minutes the contract gives.
import { afterAll, describe, expect, test } from "bun:test";
import { removeServerData, startServer, type ServerProcess } from "../support/server-process.ts";
import { connect } from "../support/ws.ts";

afterAll(removeServerData);

interface Listed {
  id: number;
  is_online: boolean;
  last_seen: string;
}

async function api(server: ServerProcess, token: string, path: string, init: RequestInit = {}) {
  const r = await fetch(`${server.url}${path}`, { ...init, headers: { authorization: `Bearer ${token}`, "content-type": "application/json", ...init.headers } });
  return { status: r.status, body: (await r.json()) as any };
}

const listed = async (server: ServerProcess, token: string, id: number): Promise<Listed | undefined> =>
  ((await api(server, token, "/api/users")).body.users as Listed[]).find((u) => u.id === id);

describe("presence after a restart", () => {
  for (const how of ["SIGKILL", "SIGTERM"] as const) {
    test(`someone online when the server was stopped with ${how} is offline after it starts again, in the list and the profile`, async () => {
      const first = await startServer();
      let second: ServerProcess | undefined;
      try {
        const online = await first.guest("female");
        const watcher = await first.guest("male");
        const socket = await connect(first.wsUrl, online.token);
        expect((await listed(first, watcher.token, online.user.id))?.is_online).toBe(true);
        const before = (await listed(first, watcher.token, online.user.id))!.last_seen;
        const stoppedAt = Date.now();
        first.proc.kill(how);
        await first.exited(10_000);
        await socket.closed;

        second = await startServer({ dataDir: first.dataDir });
        const after = await listed(second, watcher.token, online.user.id);
        expect(after?.is_online).toBe(false);
        expect((await api(second, watcher.token, `/api/users/${online.user.id}`)).body.user.is_online).toBe(false);
        expect((await api(second, watcher.token, "/api/users")).body.online).toBe(0);
        // A clean stop knows when they were last there; a crash leaves the time they came online.
        if (how === "SIGTERM") expect(Date.parse(after!.last_seen)).toBeGreaterThanOrEqual(stoppedAt);
        else expect(after!.last_seen).toBe(before);

        // Online again as soon as a socket opens.
        const again = await connect(second.wsUrl, online.token);
        expect((await listed(second, watcher.token, online.user.id))?.is_online).toBe(true);
        again.close();
      } finally {
        await first.kill();
        await second?.kill();
      }
    }, 40_000);
  }
});
