// Group commit (src/messages/writer.ts): what arrives in one turn is stored in one transaction,
// nobody hears of a message before its commit, and one bad message does not sink the others.
import { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { storeText } from "../../src/messages/service.ts";
import { MessageWriter } from "../../src/messages/writer.ts";
import { engine, type Tx } from "../../src/storage/index.ts";
import { findUser } from "../../src/users/service.ts";
import { registerUser } from "../support/app.ts";
import { listeningApp } from "../support/listening.ts";
import { connect } from "../support/ws.ts";

const t = listeningApp({ SOCKET_RATE_LIMIT: "50:100" });

/** Messages with this text, as another connection than the writer's sees them (committed ones). */
async function count(content: string): Promise<number> {
  if (engine === "sqlite") {
    const other = new Database(join(t.dataDir, "chat.sqlite"), { readonly: true });
    try {
      return (other.query("SELECT count(*) AS n FROM messages WHERE content = ?").get(content) as { n: number }).n;
    } finally {
      other.close();
    }
  }
  // The pool's other connections: the batch's transaction holds one of its own.
  const [row] = await t.sql<{ n: string }>("SELECT count(*) AS n FROM messages WHERE content = ?", content);
  return Number(row!.n);
}

describe("the message writer", () => {
  test("stores one turn's messages in one transaction and answers each only after its commit", async () => {
    const a = await registerUser(t);
    const b = await registerUser(t);
    const writer = new MessageWriter(t.ctx.db);
    const seenWhileStoring: number[] = [];
    const sender = (await findUser(t.ctx.db, a.user.id))!;
    const send = (content: string) =>
      writer.submit(async (tx) => {
        const stored = await storeText(tx, t.ctx.clock, sender, { receiverId: b.user.id, content });
        // Written, not committed: nobody else sees either message of the batch yet.
        seenWhileStoring.push((await count("batch one")) + (await count("batch two")));
        return stored;
      });
    const first = send("batch one").then(async (r) => ({ row: r.row, seenByOthers: await count("batch one") }));
    const second = send("batch two");
    const done = await first;
    await second;
    expect(seenWhileStoring).toEqual([0, 0]);
    // Committed (visible to another connection) by the time the sender is answered.
    expect(done.seenByOthers).toBe(1);
  });

  test("one failing message fails alone; the rest of its batch is stored", async () => {
    const a = await registerUser(t);
    const b = await registerUser(t);
    const writer = new MessageWriter(t.ctx.db);
    const sender = (await findUser(t.ctx.db, a.user.id))!;
    const send = (receiverId: number, content: string) => writer.submit((tx) => storeText(tx, t.ctx.clock, sender, { receiverId, content }));
    const results = await Promise.allSettled([send(b.user.id, "kept before"), send(b.user.id, "   "), send(999_999, "to nobody"), send(b.user.id, "kept after")]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "rejected", "fulfilled"]);
    expect((await count("kept before")) + (await count("kept after"))).toBe(2);
    expect(await count("to nobody")).toBe(0);
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
    expect(await count("half written")).toBe(0);
    expect((await count("replayed before")) + (await count("replayed after"))).toBe(2);
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
    expect(await count("burst")).toBe(1);
    await sb.next("new_message", undefined, (f) => f.data.message.content === "burst two");
    expect(sb.frames.filter((f) => f.event === "new_message" && f.data.message.content === "burst")).toHaveLength(1);
    sa.close();
    sb.close();
  });
});
