// The browser's realtime client (islands/lib/socket.ts, poll-transport.ts) against a real server:
// here, not beside its component tests, because those files run under happy-dom, whose fetch and
// WebSocket replace Bun's while a DOM test file runs.
import { describe, expect, test } from "bun:test";
import { PollingSocket } from "../../islands/lib/poll-transport.ts";
import { RealtimeClient } from "../../islands/lib/socket.ts";
import { registerUser } from "../support/app.ts";
import { listeningApp } from "../support/listening.ts";
import { until } from "../support/until.ts";
import { connect } from "../support/ws.ts";


describe("against a real server", () => {
  const t = listeningApp({ SIGNUP_RATE_LIMIT: "1000" });

  test("a client whose WebSocket is blocked chats over polling, then moves to a WebSocket without losing or repeating a frame", async () => {
    const ann = await registerUser(t);
    const bob = await registerUser(t);
    const b = await connect(t.wsUrl, bob.token);
    let blocked = true;
    const c = new RealtimeClient({
      url: `${t.wsUrl}/ws?token=${encodeURIComponent(ann.token)}`,
      upgradeRetryMs: 300,
      createSocket: (url) => {
        if (blocked) throw new Error("blocked");
        return new WebSocket(url);
      },
      createPolling: () => new PollingSocket(t.url, ann.token),
    });
    const got: string[] = [];
    c.on("new_message", (d) => got.push(String(d.message.content)));
    c.connect();
    await until(() => c.transport === "polling", "the client polling");
    const sent = await c.request("send_message", { receiverId: bob.user.id, content: "from polling", messageType: "text" });
    expect(sent.message.content).toBe("from polling");
    expect((await b.next("new_message")).data.message.content).toBe("from polling");
    b.send("send_message", { receiverId: ann.user.id, content: "1", messageType: "text" });
    await until(() => got.length === 1, "the first message");
    blocked = false;
    // Frames keep coming while it moves over.
    let n = 1;
    const stream = setInterval(() => b.send("send_message", { receiverId: ann.user.id, content: String(++n), messageType: "text" }), 20);
    await until(() => c.transport === "websocket", "the client back on a WebSocket");
    await Bun.sleep(200);
    clearInterval(stream);
    await until(() => got.length === n, `all ${n} messages`);
    expect(got).toEqual(Array.from({ length: n }, (_, i) => String(i + 1)));
    expect(t.ctx.hub.socketsOf(ann.user.id)).toHaveLength(1);
    expect((await c.request("ping", {})) ?? null).toEqual({});
    c.disconnect();
    b.close();
  }, 15_000);

  test("a page going away ends its polling session at once, not at the idle sweep; a page kept for going back keeps it", async () => {
    const ann = await registerUser(t);
    const kept = new PollingSocket(t.url, ann.token);
    const gone = new PollingSocket(t.url, ann.token);
    await until(() => kept.readyState === 1 && gone.readyState === 1, "both sessions open");
    expect(t.ctx.hub.socketsOf(ann.user.id)).toHaveLength(2);
    // Into the back/forward cache: nothing ends.
    globalThis.dispatchEvent(Object.assign(new Event("pagehide"), { persisted: true }));
    await Bun.sleep(0);
    expect([kept.readyState, gone.readyState]).toEqual([1, 1]);
    kept.close();
    await until(() => t.ctx.hub.socketsOf(ann.user.id).length === 1, "the closed session ended");
    globalThis.dispatchEvent(new Event("pagehide"));
    expect(gone.readyState).toBe(3);
    await until(() => t.ctx.hub.socketsOf(ann.user.id).length === 0, "the session of the page that went ended");
  }, 15_000);
});

