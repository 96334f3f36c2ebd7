// Issue 18 item 6 on the sockets: frames nested as deeply as 64 KB allows (/ws and /peerjs share
// the cap) get the usual refusal, the socket stays open, and nothing is logged as an error.
// These held before the HTTP fix; the test keeps them holding.
import { beforeAll, expect, test } from "bun:test";
import { createLogger } from "../../src/observability/log.ts";
import { openPeerSocket } from "../peerjs/client.ts";
import { registerUser } from "../support/app.ts";
import { listeningApp } from "../support/listening.ts";
import { connect } from "../support/ws.ts";

const t = listeningApp();
const errorLines: string[] = [];
beforeAll(() => {
  t.ctx.log = createLogger({ level: "warn", format: "text" }, (level, line) => {
    if (level === "error") errorLines.push(line);
  });
});

// Within the 64 KB frame cap: 16,000 arrays, or 6,000 objects.
const arrays = "[".repeat(16_000) + "]".repeat(16_000);
const objects = '{"a":'.repeat(6_000) + "1" + "}".repeat(6_000);

test("frames nested thousands deep on /ws and /peerjs are refused or ignored, and the sockets stay open", async () => {
  const { token } = await registerUser(t);
  const s = await connect(t.wsUrl, token);
  s.raw(`{"event":"send_message","data":{"receiverId":${arrays},"content":"x"},"ack":9001}`);
  s.raw(`{"event":"presence_watch","data":{"userIds":${arrays}},"ack":9002}`);
  s.raw(`{"event":"send_message","data":${objects},"ack":9003}`);
  s.raw(objects);
  // Frames are handled in order: once the ping is answered, the three answers are in.
  const pong = await s.ask("ping", {});
  expect(pong.error).toBeUndefined();
  const refusals = s.frames.filter((f) => f.ack !== undefined && f.ack > 9000).map((f) => [f.ack, f.error?.code]);
  expect(refusals).toEqual([[9001, "validation"], [9002, "validation"], [9003, "validation"]]);

  const peer = openPeerSocket(`${t.wsUrl}/peerjs/peerjs?key=peerjs&id=deep1&token=tok&version=1.5.5`, { cookie: `sid=${encodeURIComponent(token)}`, origin: t.url });
  expect(await peer.opened).toBe(true);
  expect(JSON.parse(await peer.next())).toEqual({ type: "OPEN" });
  peer.send(`{"type":"OFFER","dst":"nobody","payload":${objects}}`);
  peer.send(arrays);
  peer.send(objects);
  peer.send({ type: "HEARTBEAT" });
  await peer.drain(300);
  expect(peer.isClosed()).toBe(false);
  expect(errorLines).toEqual([]);
  peer.close();
  s.close();
});
