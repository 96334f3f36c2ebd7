// Group commit (src/messages/writer.ts): what arrives in one turn is stored in one transaction,
// nobody hears of a message before its commit, and one bad message does not sink the others.
import { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { storeText } from "../../src/messages/service.ts";
import { MessageWriter } from "../../src/messages/writer.ts";
import type { Tx } from "../../src/storage/index.ts";
import { findUser } from "../../src/users/service.ts";
import { registerUser } from "../support/app.ts";
import { listeningApp } from "../support/listening.ts";
import { connect } from "../support/ws.ts";

const t = listeningApp({ SOCKET_RATE_LIMIT: "50:100" });

const count = (sqlite: Database, content: string) => (sqlite.query("SELECT count(*) AS n FROM messages WHERE content = ?").get(content) as { n: number }).n;

describe("the message writer", () => {
  test("stores one turn's messages in one transaction and answers each only after its commit", async () => {
    const a = await registerUser(t);
    const b = await registerUser(t);
    const writer = new MessageWriter(t.ctx.db);
    const inTransaction: boolean[] = [];
    const sender = (await findUser(t.ctx.db, a.user.id))!;
    const send = (content: string) =>
      writer.submit((tx) => {
        inTransaction.push(t.ctx.sqlite.inTransaction);
        return storeText(tx, t.ctx.clock, sender, { receiverId: b.user.id, content });
      });
    const other = new Database(join(t.dataDir, "chat.sqlite"), { readonly: true });
    try {
      const first = send("batch one").then((r) => ({ row: r.row, seenByOthers: count(other, "batch one") }));
      const second = send("batch two");
      // Nothing is written while the turn is still running.
      expect(count(t.ctx.sqlite, "batch one")).toBe(0);
      const done = await first;
      await second;
      expect(inTransaction).toEqual([true, true]);
      // Committed (visible to another connection) by the time the sender is answered.
      expect(done.seenByOthers).toBe(1);
    } finally {
      other.close();
    }
  });

  test("one failing message fails alone; the rest of its batch is stored", async () => {
    const a = await registerUser(t);
    const b = await registerUser(t);
    const writer = new MessageWriter(t.ctx.db);
    const sender = (await findUser(t.ctx.db, a.user.id))!;
    const send = (receiverId: number, content: string) => writer.submit((tx) => storeText(tx, t.ctx.clock, sender, { receiverId, content }));
    const results = await Promise.allSettled([send(b.user.id, "kept before"), send(b.user.id, "   "), send(999_999, "to nobody"), send(b.user.id, "kept after")]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "rejected", "fulfilled"]);
    expect(count(t.ctx.sqlite, "kept before") + count(t.ctx.sqlite, "kept after")).toBe(2);
    expect(count(t.ctx.sqlite, "to nobody")).toBe(0);
  });

  test("a job that fails after writing leaves nothing of itself; the rest of its batch is stored", async () => {
    const a = await registerUser(t);
    const b = await registerUser(t);
    const writer = new MessageWriter(t.ctx.db);
    const sender = (await findUser(t.ctx.db, a.user.id))!;
    const store = (tx: Tx, content: string) => storeText(tx, t.ctx.clock, sender, { receiverId: b.user.id, content });
    const results = await Promise.allSettled([
      writer.submit((tx) => store(tx, "replayed before")),
      writer.submit(async (tx) => {
        await store(tx, "half written");
        throw new Error("the disk is full");
      }),
      writer.submit((tx) => store(tx, "replayed after")),
    ]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect(count(t.ctx.sqlite, "half written")).toBe(0);
    expect(count(t.ctx.sqlite, "replayed before") + count(t.ctx.sqlite, "replayed after")).toBe(2);
  });
});

describe("send_message in one burst", () => {
  test("a retry in the same batch returns the same message once; refusals in the batch do not fail the others", async () => {
    const a = await registerUser(t);
    const b = await registerUser(t);
    const sa = await connect(t.wsUrl, a.token);
    const sb = await connect(t.wsUrl, b.token);
    // Asked without waiting in between, so the frames arrive together and share a batch.
    const acks = await Promise.all([
      sa.ask("send_message", { receiverId: b.user.id, content: "burst", clientMessageId: "burst-1" }),
      sa.ask("send_message", { receiverId: b.user.id, content: "   " }),
      sa.ask("send_message", { receiverId: 999_999, content: "nobody" }),
      sa.ask("send_message", { receiverId: b.user.id, content: "burst", clientMessageId: "burst-1" }),
      sa.ask("send_message", { receiverId: b.user.id, content: "burst two" }),
    ]);
    expect(acks[0]!.data.message.client_message_id).toBe("burst-1");
    expect(acks[1]!.error?.code).toBe("validation");
    expect(acks[2]!.error?.code).toBe("not_found");
    expect(acks[3]!.data.message.id).toBe(acks[0]!.data.message.id);
    expect(acks[4]!.data.message.content).toBe("burst two");
    expect(count(t.ctx.sqlite, "burst")).toBe(1);
    await sb.next("new_message", undefined, (f) => f.data.message.content === "burst two");
    expect(sb.frames.filter((f) => f.event === "new_message" && f.data.message.content === "burst")).toHaveLength(1);
    sa.close();
    sb.close();
  });
});
