// The message writer keeps writing after a full batch (messages/writer.ts flush): a batch of
// MAX_BATCH jobs is flushed at once, and the flush its turn had scheduled still comes after that
// drain has taken every job. That empty flush used to leave the writer believing a drain was
// running, for good: no message, delivery mark or reaction was stored again until a restart, and
// every job waited forever (found as memory kept by 1,200 sockets that opened in one turn and
// closed: their jobs never left the queue).
import { describe, expect, test } from "bun:test";
import { messageWriter } from "../../src/messages/writer.ts";
import { listeningApp } from "../support/listening.ts";
import { connect } from "../support/ws.ts";
import { registerUser } from "../support/app.ts";

const t = listeningApp({ SIGNUP_RATE_LIMIT: "1000", SOCKET_CAP: "50:5000", SOCKET_CONNECT_LIMIT: "5000", SOCKET_RATE_LIMIT: "100000:100000" });
/** The writer's batch size (writer.ts MAX_BATCH) and a few more, submitted in one synchronous run. */
const BURST = 520;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("the message writer after a full batch", () => {
  test("a job submitted after a turn of more than a full batch is written", async () => {
    const writer = messageWriter(t.ctx.db);
    const burst = Array.from({ length: BURST }, (_, i) => writer.submit(() => i));
    expect(await Promise.all(burst)).toEqual(Array.from({ length: BURST }, (_, i) => i));
    // The burst's own turn flush runs now, with the queue already empty.
    await nextTurn();
    await nextTurn();
    expect(await writer.submit(() => "after")).toBe("after");
  });

  test("a flush with nothing queued leaves the writer writing", async () => {
    const writer = messageWriter(t.ctx.db);
    await writer.flush();
    expect(await writer.submit(() => "next")).toBe("next");
  });

  test("more sockets than a full batch opening in one turn, then a message between two of them is stored and delivered", async () => {
    const people = await Promise.all(Array.from({ length: 12 }, () => registerUser(t)));
    // Every opening submits its user's pending deliveries to the writer.
    const sockets = await Promise.all(Array.from({ length: BURST + 40 }, (_, i) => connect(t.wsUrl, people[i % people.length]!.token)));
    await Promise.all(sockets.map((s) => s.settle()));
    const [alice, bob] = [people[0]!, people[1]!];
    const sent = await sockets[0]!.ask("send_message", { receiverId: bob.user.id, content: "still written", clientMessageId: "after-burst" });
    expect(sent.error).toBeUndefined();
    expect(sent.data.message).toMatchObject({ sender_id: alice.user.id, receiver_id: bob.user.id, content: "still written" });
    const heard = await sockets[1]!.next("new_message");
    expect(heard.data.message.id).toBe(sent.data.message.id);
    for (const s of sockets) s.close();
  });
});
