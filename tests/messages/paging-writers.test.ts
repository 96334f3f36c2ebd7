// Paging when several instances store into one conversation (PostgreSQL, DECISIONS "Message paging
// with several writers"): each instance's MessageClock counts for itself, so two messages can
// share a millisecond; history pages by (created_at, id) and a page that ends inside a millisecond
// says so in its cursor. On SQLite one process writes and its clock keeps every time unique.
import { describe, expect, spyOn, test } from "bun:test";
import { storeText } from "../../src/messages/service.ts";
import { messageWriter } from "../../src/messages/writer.ts";
import { engine } from "../../src/storage/engine.ts";
import { requireUser } from "../../src/users/service.ts";
import { makeTestApp, registerUser, type TestApp } from "../support/app.ts";

/** Every message id of the conversation, oldest first, read page by page through `reader`. */
async function pageThrough(reader: TestApp, token: string, contactId: number, limit: number): Promise<number[]> {
  const seen: number[] = [];
  let before: string | null = null;
  for (let pages = 0; pages < 100; pages++) {
    const query: string = `?limit=${limit}${before ? `&before=${encodeURIComponent(before)}` : ""}`;
    const res = await reader.call("GET", `/api/messages/${contactId}${query}`, { token });
    expect(res.status).toBe(200);
    seen.unshift(...res.body.messages.map((m: { id: number }) => m.id));
    if (!res.body.hasMore) return seen;
    before = res.body.oldestMessageTime;
  }
  throw new Error("paging did not end");
}

describe.skipIf(engine !== "postgres")("paging with several writers", () => {
  test("two instances storing into one conversation in the same milliseconds: pages never skip or repeat a message", async () => {
    const one = makeTestApp();
    const two = makeTestApp({}, { dataDir: one.dataDir });
    try {
      await Promise.all([one.ready, two.ready]);
      const a = await registerUser(one);
      const b = await registerUser(one);
      const [fromA, fromB] = [await requireUser(one.ctx.db, a.user.id), await requireUser(two.ctx.db, b.user.id)];
      // Both clocks start from the same millisecond, so each instance's k-th message shares its
      // time with the other's; both directions at once, as two people typing.
      const now = spyOn(Date, "now").mockReturnValue(Date.now());
      try {
        for (let round = 0; round < 7; round++) {
          await Promise.all([
            messageWriter(one.ctx.db).submit((tx) => storeText(tx, one.ctx.clock, fromA, { receiverId: b.user.id, content: `one ${round}` })),
            messageWriter(two.ctx.db).submit((tx) => storeText(tx, two.ctx.clock, fromB, { receiverId: a.user.id, content: `two ${round}` })),
          ]);
        }
      } finally {
        now.mockRestore();
      }
      const stored = await one.sql<{ id: number; created_at: string }>("SELECT id, created_at FROM messages ORDER BY created_at, id");
      expect(stored).toHaveLength(14);
      // The premise: times were shared.
      expect(new Set(stored.map((row) => row.created_at)).size).toBe(7);
      const order = stored.map((row) => row.id);
      for (const limit of [1, 2, 3, 4, 5, 13, 14, 15]) {
        expect(await pageThrough(one, a.token, b.user.id, limit)).toEqual(order);
        expect(await pageThrough(two, b.token, a.user.id, limit)).toEqual(order);
      }
    } finally {
      await two.close();
      await one.close();
    }
  });
});
