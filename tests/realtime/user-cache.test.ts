// The socket path reads its user from memory (users/cache.ts): every users write of this process
// is pushed there, and one from another process is noticed by the ban watcher within 2 s.
import { describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { join } from "node:path";
import { banUser, setRole, type Actor } from "../../src/moderation/actions.ts";
import { BanWatcher } from "../../src/moderation/watch.ts";
import { openStorage } from "../../src/db.ts";
import { createContext } from "../../src/context.ts";
import { cachedUser, forgetUser } from "../../src/users/cache.ts";
import { connectedUser, listeningApp } from "../support/listening.ts";

const t = listeningApp();
const cli: Actor = { id: null, role: "cli" };

describe("the users cache", () => {
  test("a name edit shows in the very next frame", async () => {
    const a = await connectedUser(t);
    const b = await connectedUser(t);
    a.s.send("typing_start", { receiverId: b.user.id });
    expect((await b.s.next("user_typing")).data.name).toBe(a.user.name);
    const edited = await t.call("PUT", "/api/users/profile", { token: a.token, json: { name: "Renamed Person" } });
    expect(edited.status).toBe(200);
    a.s.send("typing_start", { receiverId: b.user.id });
    expect((await b.s.next("user_typing")).data.name).toBe("Renamed Person");
    a.s.close();
    b.s.close();
  });

  test("a role change and a ban are in the row the next frame reads", async () => {
    const a = await connectedUser(t);
    const b = await connectedUser(t);
    await a.s.ask("presence_watch", { userIds: [b.user.id] });
    expect(cachedUser(t.ctx.db, a.user.id)?.role).toBe("user");
    await setRole(t.ctx, cli, a.user.id, "moderator");
    expect(cachedUser(t.ctx.db, a.user.id)?.role).toBe("moderator");
    await banUser(t.ctx, cli, a.user.id, { days: 1, reason: "Spam", banAddress: false });
    expect(cachedUser(t.ctx.db, a.user.id)?.banned).toBe(true);
    expect((await a.s.closed).code).toBe(4403);
    b.s.close();
  });

  test("a ban written to the users row by another process closes the socket after the watcher's check", async () => {
    const a = await connectedUser(t);
    await a.s.ask("presence_watch", { userIds: [] });
    const watcher = await BanWatcher.start(t.ctx);
    const other = new Database(join(t.dataDir, "chat.sqlite"));
    try {
      other.run("UPDATE users SET banned = 1 WHERE id = ?", [a.user.id]);
    } finally {
      other.close();
    }
    await watcher.check();
    a.s.send("presence_watch", { userIds: [] });
    expect((await a.s.closed).code).toBe(4401);
  });

  test("a ban by another process met in a frame before the watcher's check closes with the ban's notice and 4403", async () => {
    const a = await connectedUser(t);
    await a.s.ask("presence_watch", { userIds: [] });
    // As scripts/moderate.ts does: its own connection and context (no sockets of its own).
    const other = openStorage(t.dataDir);
    try {
      await banUser(createContext(t.ctx.config, other), cli, a.user.id, { days: 7, reason: "Spam everywhere", banAddress: false });
    } finally {
      other.sqlite.close();
    }
    // Another process's write reaches this one's cache only at the watcher's check: a row read
    // afresh (here, forgotten as a presence flip would) already says banned.
    forgetUser(t.ctx.db, a.user.id);
    a.s.send("presence_watch", { userIds: [] });
    expect((await a.s.next("banned")).data.reason).toBe("Spam everywhere");
    expect((await a.s.closed).code).toBe(4403);
  });
});
