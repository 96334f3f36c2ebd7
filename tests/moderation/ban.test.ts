import { transaction } from "../../src/storage/index.ts";
import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { bans, users } from "../../src/storage/tables.ts";
import { banUser, unbanUser, type Actor } from "../../src/moderation/actions.ts";
import { findByUsername } from "../../src/moderation/service.ts";
import { loginAs, registerUser } from "../support/app.ts";
import { listeningApp } from "../support/listening.ts";
import { connect } from "../support/ws.ts";

const t = listeningApp();
const cli: Actor = { id: null, role: "cli" };

describe("bans", () => {
  test("a ban ends every session: requests get 401, login gets 403 banned, the socket closes with 4403", async () => {
    const { token, user } = await registerUser(t);
    const socket = await connect(t.wsUrl, token);
    await banUser(t.ctx, cli, user.id, { days: null, reason: "Spam", banAddress: false });
    expect((await socket.closed).code).toBe(4403);
    expect((await t.call("GET", "/api/auth/me", { token })).status).toBe(401);
    const answer = await loginAs(t, user.username);
    expect(answer.status).toBe(403);
    expect(answer.body).toMatchObject({ code: "banned", until: null, reason: "Spam" });
  });

  test("a ban that has ended lets the user in again, and so does unban", async () => {
    const a = await registerUser(t);
    const ban = await banUser(t.ctx, cli, a.user.id, { days: 1, reason: "Cooling off", banAddress: false });
    await transaction(t.ctx.db, (tx) => tx.update(bans).set({ until: Date.now() - 1 }).where(eq(bans.id, ban.id)));
    await transaction(t.ctx.db, (tx) => tx.update(users).set({ bannedUntil: Date.now() - 1 }).where(eq(users.id, a.user.id)));
    expect((await loginAs(t, a.user.username)).status).toBe(200);
    const b = await registerUser(t);
    await banUser(t.ctx, cli, b.user.id, { days: null, reason: "Abuse", banAddress: false });
    await unbanUser(t.ctx, cli, (await findByUsername(t.ctx.db, b.user.username.toUpperCase()))!.id, "Mistaken identity");
    expect((await loginAs(t, b.user.username)).status).toBe(200);
  });
});
