// Finding 3: a connect/close loop cannot flood everyone with presence events or rewrite the users
// row on every flap. A user who comes back within the grace is not announced at all.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { engine } from "../../src/storage/engine.ts";
import { registerUser } from "../support/app.ts";
import { listeningApp } from "../support/listening.ts";
import { about, connect, DEFAULT_WAIT_MS, settled, type TestSocket } from "../support/ws.ts";

// A short grace keeps the suite fast; the behaviour is the same as with the default 5 s. Not
// shorter: a flap slower than the grace is rightly announced, and a loaded machine is slow.
const GRACE_SECONDS = 2;
const t = listeningApp({ PRESENCE_GRACE_SECONDS: String(GRACE_SECONDS), SIGNUP_RATE_LIMIT: "1000" });
setDefaultTimeout(30_000);

/**
 * Counts every write to a user's presence columns: on SQLite through the app's own connection (a
 * temporary trigger), on PostgreSQL through any (a trigger in the test's own database).
 */
async function countPresenceWrites(userId: number): Promise<() => Promise<number>> {
  if (engine === "sqlite") {
    await t.sql("CREATE TEMP TABLE IF NOT EXISTS presence_writes (user_id INTEGER)");
    await t.sql(
      "CREATE TEMP TRIGGER IF NOT EXISTS count_presence_writes AFTER UPDATE OF is_online, last_seen ON main.users " +
        "BEGIN INSERT INTO presence_writes VALUES (NEW.id); END",
    );
  } else {
    await t.sql("CREATE TABLE IF NOT EXISTS presence_writes (user_id INTEGER)");
    await t.sql(
      "CREATE OR REPLACE FUNCTION count_presence_writes() RETURNS trigger LANGUAGE plpgsql AS " +
        "'BEGIN INSERT INTO presence_writes VALUES (NEW.id); RETURN NEW; END'",
    );
    await t.sql(
      "CREATE OR REPLACE TRIGGER count_presence_writes AFTER UPDATE OF is_online, last_seen ON users " +
        "FOR EACH ROW EXECUTE FUNCTION count_presence_writes()",
    );
  }
  return async () => (await t.sql<{ n: number }>("SELECT CAST(count(*) AS INTEGER) AS n FROM presence_writes WHERE user_id = ?", userId))[0]!.n;
}


/** The presence events about `userId` this socket received and nobody awaited. */
const heard = (s: TestSocket, userId: number): string[] =>
  s.frames.filter((f) => (f.event === "user_online" || f.event === "user_offline") && f.data?.userId === userId).map((f) => f.event!);

/**
 * A watcher of `userId` and of a marker user. `graceEnded()` connects and closes the marker and
 * waits for the watcher to hear it offline: graces end in the order they began, so by then any
 * grace that began earlier has ended and been announced.
 */
async function watching(userId: number) {
  const watcher = await registerUser(t);
  const marker = await registerUser(t);
  const w = await connect(t.wsUrl, watcher.token);
  await w.ask("presence_watch", { userIds: [userId, marker.user.id] });
  return {
    w,
    async graceEnded() {
      const m = await connect(t.wsUrl, marker.token);
      await w.next("user_online", undefined, about(marker.user.id));
      m.close();
      await w.next("user_offline", GRACE_SECONDS * 1000 + DEFAULT_WAIT_MS, about(marker.user.id));
    },
  };
}

describe("presence flapping", () => {
  test("a connect/close loop of one account reaches a watching socket as at most one online/offline pair", async () => {
    const flapper = await registerUser(t, { name: "Flap Flapper" });
    const { w, graceEnded } = await watching(flapper.user.id);
    const writes = await countPresenceWrites(flapper.user.id);
    // 25 rounds: under the 30 connections a minute.
    for (let round = 0; round < 25; round++) {
      // connect waits until the server holds it: a socket closed while its opening still reads
      // the session (a round trip on PostgreSQL) never counts, and would test nothing.
      const s = await connect(t.wsUrl, flapper.token);
      s.close();
      await s.closed;
    }
    // After the grace the last close is announced once.
    await w.next("user_offline", GRACE_SECONDS * 1000 + DEFAULT_WAIT_MS, about(flapper.user.id));
    // Besides that offline, the watcher heard exactly one online, and nothing after.
    await graceEnded();
    expect(heard(w, flapper.user.id)).toEqual(["user_online"]);
    expect(await writes()).toBeLessThanOrEqual(2);
    w.close();
  });

  test("a user who drops and returns within the grace is announced neither offline nor online", async () => {
    const ann = await registerUser(t);
    const { w, graceEnded } = await watching(ann.user.id);
    const first = await connect(t.wsUrl, ann.token);
    await w.next("user_online", undefined, about(ann.user.id));
    const writes = await countPresenceWrites(ann.user.id);
    const before = await writes();
    first.close();
    await first.closed;
    const back = await connect(t.wsUrl, ann.token);
    await graceEnded();
    expect(heard(w, ann.user.id)).toEqual([]);
    expect(await writes()).toBe(before);
    back.close();
    w.close();
  });

  test("a user_logout and user_back_online loop on one socket announces nothing", async () => {
    const bob = await registerUser(t);
    const { w, graceEnded } = await watching(bob.user.id);
    const b = await connect(t.wsUrl, bob.token);
    await w.next("user_online", undefined, about(bob.user.id));
    for (let i = 0; i < 10; i++) {
      b.send("user_logout");
      b.send("user_back_online");
    }
    // Handled in order on b's socket: after its pong, the last user_back_online has been read.
    await settled(b);
    await graceEnded();
    expect(heard(w, bob.user.id)).toEqual([]);
    b.close();
    w.close();
  });

  test("a user who does not come back is announced offline once the grace has passed, and the row says so", async () => {
    const watcher = await registerUser(t);
    const cy = await registerUser(t);
    const w = await connect(t.wsUrl, watcher.token);
    await w.ask("presence_watch", { userIds: [cy.user.id] });
    const c = await connect(t.wsUrl, cy.token);
    await w.next("user_online", undefined, about(cy.user.id));
    const closedAt = Date.now();
    c.close();
    await w.next("user_offline", GRACE_SECONDS * 1000 + DEFAULT_WAIT_MS, about(cy.user.id));
    expect(Date.now() - closedAt).toBeGreaterThanOrEqual(GRACE_SECONDS * 1000 - 100);
    const row = (await t.sql<{ is_online: number | boolean }>("SELECT is_online FROM users WHERE id = ?", cy.user.id))[0]!;
    // 0 on SQLite, false on PostgreSQL.
    expect(Number(row.is_online)).toBe(0);
    w.close();
  });
});
