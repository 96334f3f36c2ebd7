// The socket path reads its user from memory (users/cache.ts): every users write of this process
// is pushed there, and one from another process shows within 2 s (users/cache.ts).
import { describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { join } from "node:path";
import { banUser, setRole, type Actor } from "../../src/moderation/actions.ts";
import { BanWatcher } from "../../src/moderation/watch.ts";
import { engine } from "../../src/storage/engine.ts";
import { makeTestApp } from "../support/app.ts";
import { cachedUser, forgetUser } from "../../src/users/cache.ts";
import { connectedUser, listeningApp } from "../support/listening.ts";

const t = listeningApp();
const cli: Actor = { id: null, role: "cli" };

/**
 * A write from another connection than the app's: SQLite's data_version moves only for those.
 * On PostgreSQL every statement may run on another pooled connection, and each cached row leaves
 * within 2 s of its read whatever wrote (users/cache.ts).
 */
async function writeElsewhere(text: string, ...values: (number | boolean)[]): Promise<void> {
  if (engine !== "sqlite") {
    await t.sql(text, ...values);
    return;
  }
  const other = new Database(join(t.dataDir, "chat.sqlite"));
  try {
    other.query(text).run(...values);
  } finally {
    other.close();
  }
}

describe("the users cache", () => {
  test("a name edit shows in the very next frame", async () => {
    const a = await connectedUser(t);
    // Typing goes to the receiver's sockets the server holds: connect waits until it holds b's.
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
    expect((await cachedUser(t.ctx.db, a.user.id))?.role).toBe("user");
    await setRole(t.ctx, cli, a.user.id, "moderator");
    expect((await cachedUser(t.ctx.db, a.user.id))?.role).toBe("moderator");
    await banUser(t.ctx, cli, a.user.id, { days: 1, reason: "Spam", banAddress: false });
    expect((await cachedUser(t.ctx.db, a.user.id))?.banned).toBe(true);
    expect((await a.s.closed).code).toBe(4403);
    b.s.close();
  });

  test("a ban written to the users row by another process closes the socket: on SQLite after the watcher's check, on PostgreSQL once the row read before it leaves (2 s)", async () => {
    const a = await connectedUser(t);
    await a.s.ask("presence_watch", { userIds: [] });
    const watcher = await BanWatcher.start(t.ctx);
    await writeElsewhere("UPDATE users SET banned = ? WHERE id = ?", true, a.user.id);
    const written = Date.now();
    await watcher.check();
    if (engine === "sqlite") {
      a.s.send("presence_watch", { userIds: [] });
      expect((await a.s.closed).code).toBe(4401);
      return;
    }
    // A frame every 100 ms: those within the row's stay are answered from the row read before.
    let closed: { code: number } | null = null;
    void a.s.closed.then((c) => (closed = c));
    while (closed === null && Date.now() - written < 10_000) {
      a.s.send("presence_watch", { userIds: [] });
      await Bun.sleep(100);
    }
    expect(closed).not.toBeNull();
    expect(closed!.code).toBe(4401);
  });

  test("a ban by another process met in a frame before the watcher's check closes with the ban's notice and 4403", async () => {
    const a = await connectedUser(t);
    await a.s.ask("presence_watch", { userIds: [] });
    // As scripts/moderate.ts does: its own connection and context (no sockets of its own).
    const other = makeTestApp({}, { dataDir: t.dataDir });
    try {
      await other.ready;
      await banUser(other.ctx, cli, a.user.id, { days: 7, reason: "Spam everywhere", banAddress: false });
    } finally {
      await other.close();
    }
    // Another process's write reaches this one's cache only at the watcher's check: a row read
    // afresh (here, forgotten as a presence flip would) already says banned.
    forgetUser(t.ctx.db, a.user.id);
    a.s.send("presence_watch", { userIds: [] });
    expect((await a.s.next("banned")).data.reason).toBe("Spam everywhere");
    expect((await a.s.closed).code).toBe(4403);
  });
});
