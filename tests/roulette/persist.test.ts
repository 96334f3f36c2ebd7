// Roulette sessions saved to the database and read back by the next process (src/roulette/persist.ts):
// the copy on disk follows memory, within the same 10 minutes and budgets.
import { afterAll, describe, expect, test } from "bun:test";
import { createLogger } from "../../src/observability/log.ts";
import { persistRouletteSessions } from "../../src/roulette/persist.ts";
import { MAX_ENDED_SESSIONS, RouletteSessions, SESSION_RETAIN_MS } from "../../src/roulette/sessions.ts";
import { makeTestApp, type TestApp } from "../support/app.ts";
import { until } from "../support/until.ts";

// A test app only for its database, whichever engine the run uses.
const apps: TestApp[] = [];
afterAll(() => Promise.all(apps.map((t) => t.close())));
const silent = createLogger({ level: "silent", format: "text" });

async function storage(): Promise<TestApp> {
  const t = makeTestApp();
  apps.push(t);
  await t.ready;
  return t;
}

/** One "process": sessions in memory over the database, on a clock the test moves. */
async function boot(store: TestApp, clock: { now: number }) {
  const sessions = new RouletteSessions(() => clock.now);
  const saved = await persistRouletteSessions(sessions, store.ctx.db, silent, () => clock.now);
  return { sessions, saved };
}

const rows = async (store: TestApp) => Number((await store.sql<{ n: number }>("SELECT count(*) AS n FROM roulette_sessions"))[0]!.n);

describe("saved roulette sessions", () => {
  test("come back after a restart with who, when and the text, running ones ended at the restart", async () => {
    const store = await storage();
    const clock = { now: 1_000_000 };
    const one = await boot(store, clock);
    const ended = one.sessions.start(1, 2);
    one.sessions.addLine(ended, { senderId: 2, text: "hello", at: clock.now });
    one.sessions.end(ended);
    const running = one.sessions.start(3, 4);
    await one.saved.flush();

    clock.now += 60_000;
    const two = await boot(store, clock);
    expect(two.sessions.strangerOf(ended.id, 1)).toBe(2);
    expect(two.sessions.find(ended.id)?.lines).toEqual([{ senderId: 2, text: "hello", at: 1_000_000 }]);
    expect(two.sessions.find(ended.id)?.endedAt).toBe(1_000_000);
    expect(two.sessions.find(running.id)?.endedAt).toBe(clock.now);
    expect(two.sessions.strangerOf(running.id, 4)).toBe(3);
  });

  test("a session saved while it ran is updated in its one row when it ends and gets text", async () => {
    const store = await storage();
    const clock = { now: 4_000_000 };
    const one = await boot(store, clock);
    const session = one.sessions.start(1, 2);
    await one.saved.flush();
    one.sessions.addLine(session, { senderId: 1, text: "hi", at: clock.now });
    clock.now += 5_000;
    one.sessions.end(session);
    await one.saved.flush();
    const stored = await store.sql<{ id: string; endedAt: number | string; lines: string }>('SELECT id, ended_at AS "endedAt", lines FROM roulette_sessions');
    // bigint comes back from postgres.js as a string.
    expect(stored.map((r) => ({ ...r, endedAt: Number(r.endedAt) }))).toEqual([
      { id: session.id, endedAt: 4_005_000, lines: JSON.stringify([{ senderId: 1, text: "hi", at: 4_000_000 }]) },
    ]);
  });

  test("are gone, from memory and the table, 10 minutes after they ended, even across a restart", async () => {
    const store = await storage();
    const clock = { now: 5_000_000 };
    const one = await boot(store, clock);
    const old = one.sessions.start(1, 2);
    one.sessions.end(old);
    await one.saved.flush();
    clock.now += SESSION_RETAIN_MS - 1;
    const fresh = one.sessions.start(3, 4);
    one.sessions.end(fresh);
    await one.saved.flush();
    expect(await rows(store)).toBe(2);

    clock.now += 1;
    const two = await boot(store, clock);
    expect(two.sessions.find(old.id)).toBeUndefined();
    expect(two.sessions.find(fresh.id)).toBeDefined();
    expect(await rows(store)).toBe(1);

    clock.now += SESSION_RETAIN_MS;
    const later = two.sessions.start(5, 6);
    two.sessions.end(later); // ending sweeps
    await two.saved.flush();
    expect(two.sessions.find(fresh.id)).toBeUndefined();
    expect(await store.sql("SELECT id FROM roulette_sessions")).toEqual([{ id: later.id }]);
  });

  test("leave the table when memory's budget forgets them", async () => {
    const store = await storage();
    const clock = { now: 9_000_000 };
    const one = await boot(store, clock);
    const first = one.sessions.start(1, 2);
    one.sessions.end(first);
    await one.saved.flush();
    expect(await rows(store)).toBe(1);
    for (let i = 0; i < MAX_ENDED_SESSIONS; i++) one.sessions.end(one.sessions.start(10 + i, 20 + i));
    await one.saved.flush();
    expect(one.sessions.find(first.id)).toBeUndefined();
    expect(await rows(store)).toBe(MAX_ENDED_SESSIONS);
    // One more pushes out the oldest of them, which was saved: its row goes too.
    one.sessions.end(one.sessions.start(7, 8));
    await one.saved.flush();
    expect(await rows(store)).toBe(MAX_ENDED_SESSIONS);
    expect(await store.sql("SELECT id FROM roulette_sessions WHERE id = ?", first.id)).toEqual([]);
  });

  test("a pairing that memory forgets before the next save is never written", async () => {
    const store = await storage();
    const clock = { now: 3_000_000 };
    const one = await boot(store, clock);
    const first = one.sessions.start(1, 2);
    one.sessions.end(first);
    for (let i = 0; i < MAX_ENDED_SESSIONS; i++) one.sessions.end(one.sessions.start(10 + i, 20 + i));
    await one.saved.flush();
    // Exactly MAX_ENDED_SESSIONS rows were ever inserted into the empty table: the row keys run
    // 1..MAX without a gap, so none was written and deleted again.
    const [keys] = await store.sql<{ n: number; low: number; high: number }>('SELECT count(*) AS n, min("row") AS low, max("row") AS high FROM roulette_sessions');
    expect([Number(keys!.n), Number(keys!.low), Number(keys!.high)]).toEqual([MAX_ENDED_SESSIONS, 1, MAX_ENDED_SESSIONS]);
    expect(await store.sql("SELECT id FROM roulette_sessions WHERE id = ?", first.id)).toEqual([]);
  });

  test("are saved by the timer every second, a busy second in several steps", async () => {
    const store = await storage();
    const clock = { now: Date.now() };
    const one = await boot(store, clock);
    for (let i = 0; i < 2_500; i++) one.sessions.end(one.sessions.start(2 * i + 1, 2 * i + 2));
    await until(async () => (await rows(store)) >= 2_500, "the timer saving every session");
    expect(await rows(store)).toBe(2_500);
    await one.saved.stop();
  });

  test("a save that fails is tried again at the next pass", async () => {
    const store = await storage();
    const clock = { now: 2_000_000 };
    const one = await boot(store, clock);
    const session = one.sessions.start(1, 2);
    await store.sql("ALTER TABLE roulette_sessions RENAME TO roulette_sessions_away");
    expect(await one.saved.flush()).toBe(false);
    await store.sql("ALTER TABLE roulette_sessions_away RENAME TO roulette_sessions");
    expect(await one.saved.flush()).toBe(true);
    expect(await store.sql('SELECT user_a AS a, user_b AS b, ended_at AS "endedAt" FROM roulette_sessions WHERE id = ?', session.id)).toEqual([{ a: 1, b: 2, endedAt: null }]);
  });
});
