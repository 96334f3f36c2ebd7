// Pins what one message costs the database (issue 11): no read of the sender's user row per
// frame (users/cache.ts), on either engine; and on SQLite, no SQL prepared per message (every
// query of the path is prepared once), one insert (it carries the delivery time; no update
// follows) besides the two conversation rows (messages/conversations), and no promise between
// the writer's batch and the stored row (issue 22).
import { describe, expect, test } from "bun:test";
import { statements } from "../../src/messages/statements.ts";
import { storeText } from "../../src/messages/service.ts";
import { messageWriter } from "../../src/messages/writer.ts";
import { findUser } from "../../src/users/service.ts";
import { engine } from "../../src/storage/engine.ts";
import { registerUser } from "../support/app.ts";
import { listeningApp } from "../support/listening.ts";
import { connect } from "../support/ws.ts";

const t = listeningApp({ SOCKET_RATE_LIMIT: "100:200" });

const totalChanges = () => (t.ctx.sqlite!.query("SELECT total_changes() AS n").get() as { n: number }).n;

/** Two connected people, after a first message that loads the path (statements, the receiver's existence). */
async function warmPair() {
  const a = await registerUser(t);
  const b = await registerUser(t);
  const sa = await connect(t.wsUrl, a.token);
  const sb = await connect(t.wsUrl, b.token);
  await sa.ask("send_message", { receiverId: b.user.id, content: "warm up", clientMessageId: "warm" });
  return { a, b, sa, sb };
}

describe("the cost of one message", () => {
  test("reads no user row per message", async () => {
    const { b, sa, sb } = await warmPair();
    const s = statements(t.ctx.db);
    const readUser = s.userById;
    let userReads = 0;
    s.userById = (...args) => {
      userReads += 1;
      return readUser(...args);
    };
    try {
      for (let i = 0; i < 5; i++) {
        const ack = await sa.ask("send_message", { receiverId: b.user.id, content: `counted ${i}`, clientMessageId: `u-${i}` });
        expect(ack.data.message.is_delivered).toBe(true);
      }
      expect(userReads).toBe(0);
    } finally {
      s.userById = readUser;
      sa.close();
      sb.close();
    }
  });

  // bun:sqlite's own counters; PostgreSQL prepares per connection and has no total_changes().
  test.skipIf(engine !== "sqlite")("prepares no statement and writes one row per message to a connected receiver (SQLite)", async () => {
    const { b, sa, sb } = await warmPair();
    const sqlite = t.ctx.sqlite!;
    const prepare = sqlite.prepare.bind(sqlite);
    let prepared = 0;
    sqlite.prepare = ((sql: string, ...rest: []) => {
      prepared += 1;
      return prepare(sql, ...rest);
    }) as typeof sqlite.prepare;
    try {
      const before = totalChanges();
      for (let i = 0; i < 5; i++) {
        const ack = await sa.ask("send_message", { receiverId: b.user.id, content: `counted ${i}`, clientMessageId: `c-${i}` });
        expect(ack.data.message.is_delivered).toBe(true);
      }
      // Per message: its row, delivery time included, and each side's conversation row.
      expect(totalChanges() - before).toBe(5 * 3);
      expect(prepared).toBe(0);
    } finally {
      sqlite.prepare = prepare;
      sa.close();
      sb.close();
    }
  });

  // On PostgreSQL every statement answers a promise; on SQLite the common message needs none.
  test.skipIf(engine !== "sqlite")("inside the writer's batch a message to a known receiver is stored at once, a reply by the checked way (SQLite)", async () => {
    const { a, b, sa, sb } = await warmPair();
    try {
      const sender = (await findUser(t.ctx.db, a.user.id))!;
      const writer = messageWriter(t.ctx.db);
      const plain = await writer.submit((tx) => {
        const answer = storeText(tx, t.ctx.clock, sender, { receiverId: b.user.id, content: "at once" });
        return { promised: answer instanceof Promise, answer };
      });
      expect(plain.promised).toBe(false);
      const { row } = await plain.answer;
      expect(row).toMatchObject({ senderId: a.user.id, receiverId: b.user.id, content: "at once" });
      // A reply reads the message it answers first, so it goes by a promise, and is stored all the same.
      const reply = await writer.submit((tx) => {
        const answer = storeText(tx, t.ctx.clock, sender, { receiverId: b.user.id, content: "and a reply", replyToId: row.id });
        return { promised: answer instanceof Promise, answer };
      });
      expect(reply.promised).toBe(true);
      const stored = await reply.answer;
      expect(stored.row.replyToId).toBe(row.id);
      expect(stored.replyTo?.id).toBe(row.id);
    } finally {
      sa.close();
      sb.close();
    }
  });
});
