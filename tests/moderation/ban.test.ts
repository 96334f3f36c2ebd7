import { describe, expect, test } from "bun:test";
import { ban, findByUsername, unban } from "../../src/moderation/service.ts";
import { registerUser } from "../support/app.ts";
import { listeningApp } from "../support/listening.ts";
import { connect } from "../support/ws.ts";

const t = listeningApp();

describe("bans", () => {
  test("a ban ends every session: requests get 401, login gets 403 banned, the socket closes", async () => {
    const { token, user } = await registerUser(t);
    const socket = await connect(t.wsUrl, token);
    const ended = ban(t.ctx.db, user.id, null);
    expect(ended).toHaveLength(1);
    expect((await t.call("GET", "/api/auth/me", { token })).status).toBe(401);
    const login = await t.call("POST", "/api/auth/login", { json: { username: user.username, password: "correct horse" } });
    expect(login.status).toBe(403);
    expect(login.body).toMatchObject({ code: "banned", until: null });
    socket.send("ping");
    expect((await socket.closed).code).toBe(4401);
  });

  test("a ban that has ended lets the user in again, and so does unban", async () => {
    const a = await registerUser(t);
    ban(t.ctx.db, a.user.id, Date.now() - 1);
    expect((await t.call("POST", "/api/auth/login", { json: { username: a.user.username, password: "correct horse" } })).status).toBe(200);
    const b = await registerUser(t);
    ban(t.ctx.db, b.user.id, null);
    unban(t.ctx.db, findByUsername(t.ctx.db, b.user.username.toUpperCase())!.id);
    expect((await t.call("POST", "/api/auth/login", { json: { username: b.user.username, password: "correct horse" } })).status).toBe(200);
  });
});
