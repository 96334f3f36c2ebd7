// Messages stored together in one of the writer's batches (messages/writer.ts; on PostgreSQL one
// statement for the whole batch, messages/pg-store.ts): each sender gets its own row back, the
// chat list counts every message once, a client id retried inside the batch is stored once, and
// text PostgreSQL cannot hold as sent (a NUL, half of a surrogate pair) answers the same on both
// engines and never fails the messages stored with it.
import { describe, expect, test } from "bun:test";
import { storeText } from "../../src/messages/service.ts";
import { engine } from "../../src/storage/index.ts";
import { pgClient } from "../../src/storage/pg-client.ts";
import { messageWriter } from "../../src/messages/writer.ts";
import { requireUser } from "../../src/users/service.ts";
import { registerUser } from "../support/app.ts";
import { listeningApp } from "../support/listening.ts";
import { connect } from "../support/ws.ts";

const t = listeningApp({ SOCKET_RATE_LIMIT: "200:400" });

describe("messages stored in one batch", () => {
  test("forty messages of one turn between three people: each sender gets its own row, the chat list counts them all", async () => {
    const [a, b, c] = [await registerUser(t), await registerUser(t), await registerUser(t)];
    const [ua, ub, uc] = await Promise.all([a, b, c].map((x) => requireUser(t.ctx.db, x.user.id)));
    const writer = messageWriter(t.ctx.db);
    // Submitted in one synchronous run: one batch (the writer starts them together).
    const sends = Array.from({ length: 40 }, (_, i) => {
      const [from, to] = [
        [ua!, b],
        [ub!, a],
        [uc!, a],
        [ua!, c],
      ][i % 4]! as [typeof ua & object, typeof a];
      return writer.submit((tx) => storeText(tx, t.ctx.clock, from, { receiverId: to.user.id, content: `m${i}`, clientMessageId: `batch-${i}` }));
    });
    const stored = await Promise.all(sends);
    stored.forEach((s, i) => {
      expect(s.created).toBe(true);
      expect(s.row.content).toBe(`m${i}`);
    });
    expect(new Set(stored.map((s) => s.row.id)).size).toBe(40);
    const rows = await t.sql<{ id: number; content: string }>("SELECT id, content FROM messages ORDER BY id");
    const byId = new Map(rows.map((r) => [Number(r.id), r.content]));
    for (const s of stored) expect(byId.get(s.row.id)).toBe(s.row.content);

    // a has 10 unread from b and 10 from c; the newest message either way is the one the list shows.
    const list = await t.call("GET", "/api/messages/chat-users-with-messages", { token: a.token });
    expect(list.status).toBe(200);
    const counts = Object.fromEntries(list.body.users.map((u: { id: number; unread_count: number; latest_message: { content: string } }) => [u.id, [u.unread_count, u.latest_message.content]]));
    expect(counts[b.user.id]).toEqual([10, "m37"]);
    expect(counts[c.user.id]).toEqual([10, "m39"]);
    const forB = await t.call("GET", "/api/messages/chat-users-with-messages", { token: b.token });
    expect(forB.body.users.find((u: { id: number }) => u.id === a.user.id).unread_count).toBe(10);
  });

  test("one client id sent twice in the same batch is stored once, and both answers carry that row", async () => {
    const [a, b] = [await registerUser(t), await registerUser(t)];
    const ua = (await requireUser(t.ctx.db, a.user.id))!;
    const writer = messageWriter(t.ctx.db);
    const send = () => writer.submit((tx) => storeText(tx, t.ctx.clock, ua, { receiverId: b.user.id, content: "once", clientMessageId: "twice" }));
    const [first, second] = await Promise.all([send(), send()]);
    expect([first.created, second.created].sort()).toEqual([false, true]);
    expect(first.row.id).toBe(second.row.id);
    const counted = await t.sql<{ n: number }>("SELECT count(*) AS n FROM messages WHERE client_message_id = 'twice'");
    expect(Number(counted[0]!.n)).toBe(1);
    const list = await t.call("GET", "/api/messages/chat-users-with-messages", { token: b.token });
    expect(list.body.users.find((u: { id: number }) => u.id === a.user.id).unread_count).toBe(1);
  });

  test("a NUL is refused with a clear error; half a surrogate pair is stored as U+FFFD; neither fails the messages sent with it", async () => {
    const [a, b] = [await registerUser(t), await registerUser(t)];
    const sa = await connect(t.wsUrl, a.token);
    try {
      const [before, nul, lone, after] = await Promise.all([
        sa.ask("send_message", { receiverId: b.user.id, content: "before" }),
        sa.ask("send_message", { receiverId: b.user.id, content: "a\u0000b" }),
        sa.ask("send_message", { receiverId: b.user.id, content: "x\ud800y" }),
        sa.ask("send_message", { receiverId: b.user.id, content: "after" }),
      ]);
      expect(before.data.message.content).toBe("before");
      expect(after.data.message.content).toBe("after");
      expect(nul.error?.code).toBe("validation");
      expect(lone.data.message.content).toBe("x\ufffdy");
      const page = await t.call("GET", `/api/messages/${b.user.id}`, { token: a.token });
      expect(page.body.messages.map((m: { content: string }) => m.content)).toEqual(["before", "x\ufffdy", "after"]);
    } finally {
      sa.close();
    }
  });

  test.skipIf(engine !== "postgres")(
    "on PostgreSQL a batch of one-statement jobs opens no transaction; a job failing otherwise than by refusal is written again in one, and the rest stay stored once",
    async () => {
      const [a, b] = [await registerUser(t), await registerUser(t)];
      const ua = (await requireUser(t.ctx.db, a.user.id))!;
      const writer = messageWriter(t.ctx.db);
      // Every transaction on PostgreSQL starts with postgres.js' begin (drizzle's transaction).
      const client = pgClient(t.ctx.db) as unknown as { begin: (...args: unknown[]) => unknown };
      const begin = client.begin;
      let begun = 0;
      client.begin = (...args: unknown[]) => {
        begun++;
        return begin.apply(client, args);
      };
      try {
        const send = (i: number) => writer.submit((tx) => storeText(tx, t.ctx.clock, ua, { receiverId: b.user.id, content: `one ${i}`, clientMessageId: `one-${i}` }), { oneStatement: true });
        const plain = await Promise.all([0, 1, 2].map(send));
        expect(plain.every((s) => s.created)).toBe(true);
        expect(begun).toBe(0);
        // A job whose first run fails (as a lost connection would), then succeeds.
        let tries = 0;
        const flaky = writer.submit(
          async (tx) => {
            if (++tries === 1) throw new Error("connection lost");
            return storeText(tx, t.ctx.clock, ua, { receiverId: b.user.id, content: "flaky", clientMessageId: "flaky" });
          },
          { oneStatement: true },
        );
        const others = [3, 4].map(send);
        const [again, ...rest] = await Promise.all([flaky, ...others]);
        expect(tries).toBe(2);
        expect(again.created).toBe(true);
        expect(rest.every((s) => s.created)).toBe(true);
        expect(begun).toBe(1);
        // A job that does not say it writes once makes its batch a transaction.
        await writer.submit((tx) => storeText(tx, t.ctx.clock, ua, { receiverId: b.user.id, content: "two", clientMessageId: "two" }));
        expect(begun).toBe(2);
      } finally {
        client.begin = begin;
      }
      const rows = await t.sql<{ client_message_id: string }>(`SELECT client_message_id FROM messages WHERE sender_id = ${a.user.id} ORDER BY id`);
      expect(rows.map((r) => r.client_message_id).sort()).toEqual(["flaky", "one-0", "one-1", "one-2", "one-3", "one-4", "two"]);
    },
  );
});
