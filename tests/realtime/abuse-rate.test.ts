// Finding 4: the socket event limit (20 a second, bursts of 40) holds across reconnects, and
// frames that are invalid or name unknown events spend the same budget.
import { describe, expect, test } from "bun:test";
import { registerUser } from "../support/app.ts";
import { listeningApp } from "../support/listening.ts";
import { connect } from "../support/ws.ts";
import { until } from "../support/until.ts";

const t = listeningApp({ SOCKET_RATE_LIMIT: "20:40", SIGNUP_RATE_LIMIT: "1000" });

const storedBy = async (userId: number) => (await t.sql<{ n: number }>("SELECT CAST(count(*) AS INTEGER) AS n FROM messages WHERE sender_id = ?", userId))[0]!.n;

describe("the socket event budget", () => {
  test("an open, send 45, close loop cannot store more than the bucket allows", async () => {
    const sender = await registerUser(t);
    const receiver = await registerUser(t);
    const started = Date.now();
    // 10 rounds: under 30 connections a minute.
    for (let round = 0; round < 10; round++) {
      const s = await connect(t.wsUrl, sender.token);
      for (let i = 0; i < 45; i++) s.send("send_message", { receiverId: receiver.user.id, content: `round ${round} #${i}`, messageType: "text" });
      // Every frame is answered (message_sent when stored, error when refused): then the round is over.
      for (let i = 0; i < 45; i++) await s.nextWhere((f) => f.event === "message_sent" || f.event === "error", "message_sent or error");
      s.close();
      await s.closed;
    }
    // The allowance grows with the time the rounds took, however slow the machine was.
    const seconds = (Date.now() - started) / 1000;
    // 40 at once, then 20 a second; one more for the rounding of a partly refilled token.
    expect(await storedBy(sender.user.id)).toBeLessThanOrEqual(40 + Math.ceil(20 * seconds) + 1);
  });

  test("1000 invalid frames are mostly refused with rate_limited", async () => {
    const me = await registerUser(t);
    // Held by the server once connected (connect waits for that): frames sent while it still reads
    // the session are held, at most 64, and a flood then closes it, which is not what this tests.
    const s = await connect(t.wsUrl, me.token);
    for (let i = 0; i < 1000; i++) s.raw(i % 2 ? "not json at all" : "[1,2,3]");
    await until(() => s.frames.length >= 1000, "an answer to each of the 1000 frames");
    const codes = s.frames.map((f) => f.data?.code);
    expect(codes.length).toBe(1000);
    expect(codes.filter((c) => c === "rate_limited").length).toBeGreaterThanOrEqual(900);
    expect(codes.filter((c) => c === "invalid_frame").length).toBeLessThanOrEqual(100);
    s.close();
  });

  test("unknown events spend the same budget as valid ones", async () => {
    const me = await registerUser(t);
    const other = await registerUser(t);
    const s = await connect(t.wsUrl, me.token);
    for (let i = 0; i < 40; i++) s.send("no_such_event", {});
    const answer = await s.ask("send_message", { receiverId: other.user.id, content: "after the flood", messageType: "text" });
    expect(answer.error?.code).toBe("rate_limited");
    expect(await storedBy(me.user.id)).toBe(0);
    s.close();
  });
});
