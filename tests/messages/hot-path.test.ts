// Pins what one message costs the database (issue 11): no SQL prepared per message (every query
// of the path is prepared once) and one insert (it carries the delivery time; no update follows)
// besides the two conversation rows (messages/conversations), and no read of the sender's user row
// per frame (users/cache.ts).
import { describe, expect, test } from "bun:test";
import { statements } from "../../src/messages/statements.ts";
import { registerUser } from "../support/app.ts";
import { listeningApp } from "../support/listening.ts";
import { connect } from "../support/ws.ts";

const t = listeningApp({ SOCKET_RATE_LIMIT: "100:200" });

const totalChanges = () => (t.ctx.sqlite.query("SELECT total_changes() AS n").get() as { n: number }).n;

describe("the cost of one message", () => {
  test("prepares no statement and writes one row per message to a connected receiver", async () => {
    const a = await registerUser(t);
    const b = await registerUser(t);
    const sa = await connect(t.wsUrl, a.token);
    const sb = await connect(t.wsUrl, b.token);
    // The first message prepares the path's statements and learns that the receiver exists.
    await sa.ask("send_message", { receiverId: b.user.id, content: "warm up", clientMessageId: "warm" });
    const sqlite = t.ctx.sqlite;
    const prepare = sqlite.prepare.bind(sqlite);
    let prepared = 0;
    sqlite.prepare = ((sql: string, ...rest: []) => {
      prepared += 1;
      return prepare(sql, ...rest);
    }) as typeof sqlite.prepare;
    const userById = statements(t.ctx.db).userById;
    const readUser = userById.get.bind(userById);
    let userReads = 0;
    userById.get = ((...args: Parameters<typeof readUser>) => {
      userReads += 1;
      return readUser(...args);
    }) as typeof userById.get;
    try {
      const before = totalChanges();
      for (let i = 0; i < 5; i++) {
        const ack = await sa.ask("send_message", { receiverId: b.user.id, content: `counted ${i}`, clientMessageId: `c-${i}` });
        expect(ack.data.message.is_delivered).toBe(true);
      }
      // Per message: its row, delivery time included, and each side's conversation row.
      expect(totalChanges() - before).toBe(5 * 3);
      expect(prepared).toBe(0);
      expect(userReads).toBe(0);
    } finally {
      sqlite.prepare = prepare;
      userById.get = readUser;
      sa.close();
      sb.close();
    }
  });
});
