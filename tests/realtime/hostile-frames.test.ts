// Every client event with hostile data: each gets an answer (data or a clear error, never
// "internal"), nothing crashes, and the socket stays open for the next frame.
import { expect, test } from "bun:test";
import { clientEvents } from "../../src/realtime/protocol.ts";
import { registerUser } from "../support/app.ts";
import { listeningApp } from "../support/listening.ts";
import { connect } from "../support/ws.ts";

const t = listeningApp({ SOCKET_RATE_LIMIT: "10000:10000" });

const hostile: unknown[] = [
  null,
  [],
  "text",
  42,
  {},
  { receiverId: {}, senderId: [], userId: "x", partnerId: -1, callerId: 1.5 },
  { receiverId: 99999999, content: "hi", callerPeerId: "p", answererPeerId: "p", messageIds: [1, 2], offer: {}, answer: {}, candidate: {}, partnerId: 99999999, callerId: 99999999, senderId: 99999999 },
  { receiverId: "1", content: "\u0000".repeat(10), messageIds: Array(2000).fill(1) },
  { filters: { gender: "any", country: "../.." }, userId: 1 },
  { filters: [], messageIds: "all", content: { toString: 1 } },
];

test("each event with each hostile payload is answered and the socket survives", async () => {
  const me = await registerUser(t);
  await registerUser(t);
  const s = await connect(t.wsUrl, me.token);
  const internal: string[] = [];
  for (const event of Object.keys(clientEvents)) {
    for (const data of hostile) {
      const answer = await s.ask(event, data);
      if (answer.error?.code === "internal") internal.push(`${event} ${JSON.stringify(data).slice(0, 60)}`);
      if (answer.error) expect(answer.error.message).toBeString();
    }
  }
  expect(internal).toEqual([]);
  s.send("ping");
  await s.next("pong");
  s.close();
}, 60_000);
