// The outbox corks a committed batch's frames per socket (src/realtime/outbox.ts).
import { describe, expect, test } from "bun:test";
import { holdSends, sendOrQueue, sendQueued } from "../../src/realtime/outbox.ts";

function fakeSocket() {
  const log: string[] = [];
  return {
    log,
    send: (text: string) => log.push(text),
    cork: (callback: () => unknown) => {
      log.push("cork");
      callback();
      log.push("uncork");
    },
  };
}

describe("the outbox", () => {
  test("sends at once when nothing is held", () => {
    const s = fakeSocket();
    sendOrQueue(s, "a");
    expect(s.log).toEqual(["a"]);
  });

  test("while held, a socket's frames wait for the end of the turn and go out in order in one cork", async () => {
    const s = fakeSocket();
    holdSends();
    sendOrQueue(s, "sent");
    sendOrQueue(s, "delivered");
    sendOrQueue(s, "ack");
    expect(s.log).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(s.log).toEqual(["cork", "sent", "delivered", "ack", "uncork"]);
    sendOrQueue(s, "later");
    expect(s.log.at(-1)).toBe("later");
  });

  test("what is queued for a socket goes out before it closes", async () => {
    const s = fakeSocket();
    holdSends();
    sendOrQueue(s, "banned");
    sendQueued(s);
    expect(s.log).toEqual(["banned"]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(s.log).toEqual(["banned"]);
  });
});
