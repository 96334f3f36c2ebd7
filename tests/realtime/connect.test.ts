import { describe, expect, test } from "bun:test";
import type { BanRow } from "../../src/storage/tables.ts";
import { revokeSession, sweepExpiredSessions } from "../../src/auth/sessions.ts";
import { expelBanned } from "../../src/moderation/effects.ts";
import { forgetUser } from "../../src/users/cache.ts";
import { loginAs, registerUser } from "../support/app.ts";
import { listeningApp } from "../support/listening.ts";
import { connect } from "../support/ws.ts";
import { refusedUpgrade, socketPath } from "../support/raw-ws.ts";

const t = listeningApp({ ALLOWED_ORIGINS: "https://partner.example", WS_IDLE_TIMEOUT_SECONDS: "5" });

describe("opening the socket", () => {
  // A refusal is the contract's answer (API.md "Realtime"): 401 for the token, 403 for the Origin,
  // with the JSON error; a crash, a 500 or an accepted socket fails.
  const port = () => Number(new URL(t.url).port);
  const refused = (path: string, headers: Record<string, string> = {}) => refusedUpgrade(port(), path, headers);
  const unauthorized = { status: 401, body: { code: "unauthorized", error: expect.any(String) } };
  const foreign = { status: 403, body: { code: "forbidden", error: expect.any(String) } };

  test.each([
    ["no token", "/ws"],
    ["an empty token", socketPath("")],
    ["a forged token", socketPath("forged.token")],
  ])("refuses %s with 401 unauthorized", async (_label, path) => {
    expect(await refused(path)).toEqual(unauthorized);
  });

  test("frames sent the moment the socket opens are all handled, in order, once its session is read", async () => {
    const { token } = await registerUser(t);
    const ws = new WebSocket(`${t.wsUrl}${socketPath(token)}`);
    const acks: number[] = [];
    const all = new Promise<void>((resolve, reject) => {
      ws.onmessage = (e) => {
        const frame = JSON.parse(String(e.data)) as { ack?: number; error?: unknown };
        if (frame.error) reject(new Error(`refused: ${String(e.data)}`));
        if (frame.ack !== undefined && acks.push(frame.ack) === 10) resolve();
      };
      ws.onclose = (e) => reject(new Error(`closed ${e.code}`));
    });
    // On PostgreSQL the opening's session read is still under way when these arrive.
    ws.onopen = () => {
      for (let ack = 1; ack <= 10; ack++) ws.send(JSON.stringify({ event: "presence_watch", data: { userIds: [] }, ack }));
    };
    await all;
    expect(acks).toEqual(Array.from({ length: 10 }, (_, i) => i + 1));
    ws.close();
  });

  test("refuses a revoked token with 401 unauthorized", async () => {
    const { token } = await registerUser(t);
    expect((await t.call("POST", "/api/auth/logout", { token })).status).toBe(200);
    expect(await refused(socketPath(token))).toEqual(unauthorized);
  });

  test("refuses a foreign Origin with 403 and accepts its own and listed ones", async () => {
    const { token } = await registerUser(t);
    expect(await refused(socketPath(token), { origin: "https://evil.example" })).toEqual(foreign);
    expect(await refused(socketPath(token), { origin: t.url.replace(/:\d+$/, ":1") })).toEqual(foreign);
    const own = await connect(t.wsUrl, token, { origin: t.url });
    const listed = await connect(t.wsUrl, token, { origin: "https://partner.example" });
    const loopbackAlias = await connect(t.wsUrl, token, { origin: t.url.replace("127.0.0.1", "localhost") });
    loopbackAlias.close();
    own.close();
    listed.close();
  });
});

describe("frames", () => {
  test("answers ping with pong", async () => {
    const { token } = await registerUser(t);
    const s = await connect(t.wsUrl, token);
    s.send("ping");
    await s.next("pong");
    const acked = await s.ask("ping");
    expect(acked.data).toEqual({});
    s.close();
  });

  test.each([
    ["text that is not JSON", "hello there"],
    ["broken JSON", "{nope"],
    ["a number", "42"],
    ["a JSON array", "[1,2,3]"],
    ["an object without event", '{"data":{}}'],
    ["an unknown event", '{"event":"launch_rockets","data":{}}'],
  ])("answers %s with an error event and stays open", async (_label, raw) => {
    const { token } = await registerUser(t);
    const s = await connect(t.wsUrl, token);
    s.raw(raw);
    const error = await s.next("error");
    expect(error.data.code).toMatch(/invalid_frame|unknown_event/);
    expect(error.data.message).toBeString();
    s.send("ping");
    await s.next("pong");
    s.close();
  });

  test("answers a bad frame that asked for an ack on the ack", async () => {
    const { token } = await registerUser(t);
    const s = await connect(t.wsUrl, token);
    s.raw(JSON.stringify({ event: "send_message", data: { receiverId: "x" }, ack: 7 }));
    const answer = await new Promise<unknown>((resolve) => {
      const check = setInterval(() => {
        const f = s.frames.find((f) => f.ack === 7);
        if (f) resolve((clearInterval(check), f));
      }, 10);
    });
    expect(answer).toMatchObject({ ack: 7, error: { code: "validation" } });
    s.close();
  });

  test("closes with 1009 on a frame larger than 64 KB", async () => {
    const { token } = await registerUser(t);
    const s = await connect(t.wsUrl, token);
    s.raw(JSON.stringify({ event: "ping", data: { pad: "x".repeat(70 * 1024) } }));
    expect((await s.closed).code).toBe(1009);
  });

  test("closes a socket that sends nothing for the idle time", async () => {
    const { token } = await registerUser(t);
    const s = await connect(t.wsUrl, token);
    const started = Date.now();
    const { code } = await s.closed;
    expect(code).toBe(4408);
    expect(Date.now() - started).toBeGreaterThanOrEqual(4500);
  }, 15000);

  test("logout closes that session's sockets at once, and only those", async () => {
    const { token, user } = await registerUser(t);
    const other = await loginAs(t, user.username);
    const a = await connect(t.wsUrl, token);
    const b = await connect(t.wsUrl, other.body.token);
    await t.call("POST", "/api/auth/logout", { token });
    expect((await a.closed).code).toBe(4401);
    b.send("ping");
    await b.next("pong");
    b.close();
  });

  test("a session deleted by the expiry sweep closes its socket at once", async () => {
    const { token } = await registerUser(t);
    const s = await connect(t.wsUrl, token);
    await t.sql("UPDATE sessions SET last_used_at = ? WHERE id = ?", Date.now() - 40 * 86_400_000, token.slice(0, token.indexOf(".")));
    await sweepExpiredSessions(t.ctx.db, t.ctx.config.sessionTtlMs, Date.now());
    expect((await s.closed).code).toBe(4401);
  });

  test("a frame sent after the session is revoked is never handled", async () => {
    const { token } = await registerUser(t);
    const { user: receiver } = await registerUser(t);
    const s = await connect(t.wsUrl, token);
    await revokeSession(t.ctx.db, token.slice(0, token.indexOf(".")));
    s.send("send_message", { receiverId: receiver.id, content: "after the end" }, 1);
    expect((await s.closed).code).toBe(4401);
    expect(s.frames.some((f) => f.ack === 1)).toBe(false);
    const [stored] = await t.sql<{ n: number }>("SELECT count(*) AS n FROM messages WHERE content = 'after the end'");
    expect(Number(stored!.n)).toBe(0);
  });

  test("a ban from the console closes the socket at once with 4403, after the notice", async () => {
    const { token, user } = await registerUser(t);
    const s = await connect(t.wsUrl, token);
    const ban: BanRow = { id: 0, userId: user.id, reason: "spam", until: null, createdAt: Date.now(), createdBy: null, addressHash: null, liftedAt: null, liftedBy: null, liftReason: null };
    await expelBanned(t.ctx, ban);
    expect((await s.closed).code).toBe(4403);
    expect(s.frames.some((f) => f.event === "banned")).toBe(true);
  });

  test("a ban written to the database ends the socket at its next event", async () => {
    const { token, user } = await registerUser(t);
    const s = await connect(t.wsUrl, token);
    await t.sql("UPDATE users SET banned = ? WHERE id = ?", true, user.id);
    // Another process's write reaches the users cache at the ban watcher's tick (users/cache.ts),
    // which this app does not run; the row may be cached already (on PostgreSQL the presence
    // frames read the name as the socket opens). Forgotten here, as the tick would.
    forgetUser(t.ctx.db, user.id);
    // Not a ping: it keeps the socket alive without reading the row (tests/realtime/ping.test.ts),
    // and the ban watcher's tick ends the socket within 2 s then.
    s.send("user_back_online");
    expect((await s.closed).code).toBe(4401);
  });
});
