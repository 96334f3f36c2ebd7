// What a restart of the real server keeps and what it forgets (issue 18, items 12 and 13):
// nobody is online until a socket opens, and a roulette partner can still be reported (or
// blocked) by the pairing id for the 10 minutes the contract gives.
import { afterAll, describe, expect, test } from "bun:test";
import type { TestResponse } from "../support/app.ts";
import { removeServerData, serverSql, startServer, type ServerProcess } from "../support/server-process.ts";
import { connect, type TestSocket } from "../support/ws.ts";
import { until } from "../support/until.ts";

afterAll(removeServerData);

interface Listed {
  id: number;
  is_online: boolean;
  last_seen: string;
}

async function api(server: ServerProcess, token: string, path: string, init: RequestInit = {}): Promise<Pick<TestResponse, "status" | "body">> {
  const r = await fetch(`${server.url}${path}`, { ...init, headers: { authorization: `Bearer ${token}`, "content-type": "application/json", ...init.headers } });
  return { status: r.status, body: await r.json() };
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
        // The list reads the users row, which the presence batch writes once the opening (a
        // session read, a round trip on PostgreSQL) has made the user present: waited for.
        const shownOnline = (server: ServerProcess) => async () => (await listed(server, watcher.token, online.user.id))?.is_online === true;
        await until(shownOnline(first), "the user listed online");
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
        await until(shownOnline(second), "the user listed online again");
        again.close();
      } finally {
        await first.kill();
        await second?.kill();
      }
    }, 40_000);
  }
});

/** Two guests paired in roulette who exchanged a line of text each; answers the pairing id. */
async function pairAndChat(server: ServerProcess) {
  const a = await server.guest("female");
  const b = await server.guest("male");
  const sa = await connect(server.wsUrl, a.token);
  const sb = await connect(server.wsUrl, b.token);
  const filters = { gender: "any", country: "any" };
  expect((await sa.ask("roulette_search", { filters })).data).toEqual({ status: "searching" });
  const found = sa.next("roulette_partner_found");
  expect((await sb.ask("roulette_search", { filters })).data).toEqual({ status: "paired" });
  const rouletteId: string = (await found).data.partner.id;
  await sb.ask("roulette_text", { partnerId: rouletteId, text: "you will regret this" });
  await sa.ask("roulette_text", { partnerId: rouletteId, text: "reported" });
  return { a, b, sockets: [sa, sb] as TestSocket[], rouletteId };
}


describe("roulette pairings after a restart", () => {
  for (const how of ["SIGTERM", "SIGKILL"] as const) {
    test(`a partner from just before a restart (${how}) can be reported by the pairing id afterwards, with the text chat`, async () => {
      const first = await startServer();
      let second: ServerProcess | undefined;
      try {
        const { a, b, sockets, rouletteId } = await pairAndChat(first);
        if (how === "SIGKILL") {
          // A crash keeps what was saved: wait for the second's save to hold both lines.
          const saved = async () => (await serverSql<{ lines: string }>(first.dataDir, "SELECT lines FROM roulette_sessions WHERE id = ?", rouletteId))[0];
          await until(async () => (JSON.parse((await saved())?.lines ?? "[]") as unknown[]).length === 2, "the pairing being saved");
        }
        first.proc.kill(how);
        await first.exited(10_000);
        await Promise.all(sockets.map((s) => s.closed));

        second = await startServer({ dataDir: first.dataDir });
        const r = await api(second, a.token, "/api/reports", { method: "POST", body: JSON.stringify({ context: "roulette", rouletteId, reason: "harassment" }) });
        expect(r.status).toBe(201);
        const [stored] = await serverSql<{ reportedId: number; transcript: string }>(second.dataDir, 'SELECT reported_id AS "reportedId", transcript FROM reports WHERE id = ?', r.body.report.id);
        if (!stored) throw new Error("the report was not stored");
        expect(stored.reportedId).toBe(b.user.id);
        expect((JSON.parse(stored.transcript) as { sender_id: number; text: string }[]).map((l) => [l.sender_id, l.text])).toEqual([
          [b.user.id, "you will regret this"],
          [a.user.id, "reported"],
        ]);
        // The other side can block by the same id; someone else still cannot use it.
        expect((await api(second, b.token, "/api/blocks", { method: "POST", body: JSON.stringify({ rouletteId }) })).status).toBe(201);
        const outsider = await second.guest("male");
        expect((await api(second, outsider.token, "/api/reports", { method: "POST", body: JSON.stringify({ context: "roulette", rouletteId, reason: "spam" }) })).status).toBe(404);
      } finally {
        await first.kill();
        await second?.kill();
      }
    }, 40_000);
  }
});
