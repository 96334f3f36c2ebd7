// The realtime client's choice of transport: a WebSocket first, long-polling when one cannot be
// opened, and back to a WebSocket when it can (islands/lib/socket.ts). Against a real server:
// tests/realtime/polling-client.test.ts.
import { describe, expect, test } from "bun:test";
import { RealtimeClient, type ConnectionStatus, type PollingLike } from "../../islands/lib/socket.ts";
import { FakeSocket } from "./fake-socket.ts";
import { until } from "./waits.ts";


class FakePolling extends FakeSocket implements PollingLike {
  sid: string | null = "sid-1";
  handingOver = false;
  private finishHandOver: ((moved: boolean) => void) | null = null;
  handOver(timeoutMs: number): Promise<boolean> {
    this.handingOver = true;
    return new Promise((resolve) => {
      this.finishHandOver = resolve;
      setTimeout(() => resolve(false), timeoutMs);
    });
  }
  /** The last poll comes back: its frames, then the server's word that the WebSocket holds the session. */
  lastPoll(frames: object[]) {
    for (const frame of frames) this.receive(frame);
    this.finishHandOver?.(true);
  }
}

function client(options: { throwing?: boolean; confirmMs?: number } = {}) {
  const sockets: FakeSocket[] = [];
  const polls: FakePolling[] = [];
  const statuses: ConnectionStatus[] = [];
  const c = new RealtimeClient({
    url: "ws://test/ws?token=t",
    baseDelayMs: 2,
    upgradeRetryMs: 20,
    confirmMs: options.confirmMs ?? 1000,
    createSocket: (url) => {
      if (options.throwing) throw new Error("WebSocket is blocked");
      const s = new FakeSocket(url);
      sockets.push(s);
      return s;
    },
    createPolling: () => {
      const p = new FakePolling();
      polls.push(p);
      return p;
    },
  });
  c.onStatus((s) => statuses.push(s));
  return { c, sockets, polls, statuses };
}

describe("choosing the transport", () => {
  test("a WebSocket that opens and answers is used, and no polling session is made", async () => {
    const { c, sockets, polls } = client({ confirmMs: 20 });
    c.connect();
    sockets[0]!.open();
    // It pings at once: the server's answer shows the socket really reaches it.
    expect(JSON.parse(sockets[0]!.sent[0]!)).toEqual({ event: "ping", data: {} });
    // Until it answers, the page's own frames do not go into it.
    expect(c.status).toBe("connecting");
    expect(c.send("typing_start", { receiverId: 2 })).toBe(false);
    expect(sockets[0]!.sent).toHaveLength(1);
    sockets[0]!.receive({ event: "pong", data: {} });
    expect(c.status).toBe("connected");
    await Bun.sleep(40);
    expect(c.transport).toBe("websocket");
    expect(polls).toHaveLength(0);
    c.disconnect();
  });

  test("a WebSocket that opens but never answers (a proxy or a mock holds it) counts as not opened: polling takes over", async () => {
    const { c, sockets, polls } = client({ confirmMs: 20 });
    c.connect();
    sockets[0]!.open();
    await until(() => polls.length === 1, "polls.length === 1");
    polls[0]!.open();
    expect(c.transport).toBe("polling");
    c.disconnect();
  });

  test("a WebSocket that opens and closes at once without a word counts as not opened", () => {
    const { c, sockets, polls } = client();
    c.connect();
    sockets[0]!.open();
    sockets[0]!.fail(1000);
    expect(polls).toHaveLength(1);
    c.disconnect();
  });

  test("a WebSocket that fails to open falls back to polling at once, without a reconnect delay", async () => {
    const { c, sockets, polls, statuses } = client();
    c.connect();
    sockets[0]!.fail();
    expect(polls).toHaveLength(1);
    polls[0]!.open();
    expect(c.transport).toBe("polling");
    expect(statuses).toEqual(["connecting", "connected"]);
    c.disconnect();
  });

  test("a WebSocket the browser refuses to create falls back to polling", async () => {
    const { c, polls } = client({ throwing: true });
    c.connect();
    await until(() => polls.length === 1, "polls.length === 1");
    polls[0]!.open();
    expect(c.transport).toBe("polling");
    c.disconnect();
  });

  test("events and acks go through the polling socket in the same envelope", async () => {
    const { c, sockets, polls } = client();
    c.connect();
    sockets[0]!.fail();
    polls[0]!.open();
    expect(c.send("typing_start", { receiverId: 2 })).toBe(true);
    const answer = c.request("ping", {});
    const sent = polls[0]!.sent.map((s) => JSON.parse(s));
    expect(sent[0]).toEqual({ event: "typing_start", data: { receiverId: 2 } });
    polls[0]!.receive({ ack: sent[1].ack, data: { ok: 1 } });
    expect(await answer).toEqual({ ok: 1 });
    c.disconnect();
  });

  test("a session ended by the server while polling (4401) ends the client as on /ws", () => {
    const { c, sockets, polls } = client();
    c.connect();
    sockets[0]!.fail();
    polls[0]!.open();
    polls[0]!.fail(4401);
    expect(c.status).toBe("unauthorized");
  });
});

describe("switching back to a WebSocket", () => {
  test("while polling, a WebSocket is tried with resume=<sid> and takes over: the last poll's frames first, the WebSocket's after, none twice", async () => {
    const { c, sockets, polls } = client();
    const got: string[] = [];
    c.on("new_message", (d) => got.push(String(d.message.content)));
    c.connect();
    sockets[0]!.fail();
    polls[0]!.open();
    await until(() => sockets.length === 2, "sockets.length === 2");
    expect(sockets[1]!.url).toBe("ws://test/ws?token=t&resume=sid-1");
    // The polling side listens for the server's word before the WebSocket even opens.
    expect(polls[0]!.handingOver).toBe(true);
    sockets[1]!.open();
    // Until the server confirms the move, sends still go by polling (to the same session).
    c.send("ping", {});
    expect(polls[0]!.sent).toHaveLength(1);
    // The WebSocket's first frame waits for the last poll.
    sockets[1]!.receive({ event: "new_message", data: { message: { content: "3" } } });
    expect(got).toEqual([]);
    polls[0]!.lastPoll([{ event: "new_message", data: { message: { content: "1" } } }, { event: "new_message", data: { message: { content: "2" } } }]);
    await until(() => got.length === 3, "got.length === 3");
    expect(c.transport).toBe("websocket");
    sockets[1]!.receive({ event: "new_message", data: { message: { content: "4" } } });
    expect(got).toEqual(["1", "2", "3", "4"]);
    c.send("ping", {});
    expect(sockets[1]!.sent).toHaveLength(1);
    // The polling socket is not closed: the server moved its session, closing it would end that.
    expect(polls[0]!.onmessage).toBeNull();
    c.disconnect();
  });

  test("the server's word may come before the WebSocket's open event: the move still happens once both are in", async () => {
    const { c, sockets, polls } = client();
    const got: string[] = [];
    c.on("new_message", (d) => got.push(String(d.message.content)));
    c.connect();
    sockets[0]!.fail();
    polls[0]!.open();
    await until(() => sockets.length === 2, "sockets.length === 2");
    polls[0]!.lastPoll([{ event: "new_message", data: { message: { content: "1" } } }]);
    await Bun.sleep(5);
    expect(c.transport).toBe("polling");
    sockets[1]!.receive({ event: "new_message", data: { message: { content: "2" } } });
    sockets[1]!.open();
    expect(c.transport).toBe("websocket");
    expect(got).toEqual(["1", "2"]);
    c.disconnect();
  });

  test("a WebSocket whose move the server confirmed but which then fails ends in a reconnect, not a stuck connection", async () => {
    const { c, sockets, polls } = client();
    c.connect();
    sockets[0]!.fail();
    polls[0]!.open();
    await until(() => sockets.length === 2, "sockets.length === 2");
    polls[0]!.lastPoll([]);
    await Bun.sleep(5);
    sockets[1]!.fail();
    await until(() => polls.length === 2, "polls.length === 2");
    polls[1]!.open();
    expect(c.transport).toBe("polling");
    c.disconnect();
  });

  test("a WebSocket whose move the server never confirms is closed, and polling goes on", async () => {
    const { c, sockets, polls } = client({ confirmMs: 20 });
    c.connect();
    sockets[0]!.fail();
    polls[0]!.open();
    await until(() => sockets.length === 2, "sockets.length === 2");
    sockets[1]!.open();
    await Bun.sleep(40);
    expect(sockets[1]!.readyState).toBe(3);
    expect(c.transport).toBe("polling");
    c.send("ping", {});
    expect(polls[0]!.sent).toHaveLength(1);
    c.disconnect();
  });

  test("a failed try keeps polling and tries again later", async () => {
    const { c, sockets, polls } = client();
    c.connect();
    sockets[0]!.fail();
    polls[0]!.open();
    await until(() => sockets.length === 2, "sockets.length === 2");
    sockets[1]!.fail();
    expect(c.transport).toBe("polling");
    await until(() => sockets.length === 3, "sockets.length === 3");
    expect(c.transport).toBe("polling");
    c.disconnect();
  });

  test("a polling connection that drops reconnects by polling, then moves to a WebSocket when it can", async () => {
    const { c, sockets, polls } = client();
    c.connect();
    sockets[0]!.fail();
    polls[0]!.open();
    polls[0]!.fail(1006);
    await until(() => polls.length === 2, "polls.length === 2");
    polls[1]!.open();
    expect(c.transport).toBe("polling");
    await until(() => sockets.length === 2, "sockets.length === 2");
    sockets[1]!.open();
    polls[1]!.lastPoll([]);
    await until(() => c.transport === "websocket", "the client back on a WebSocket");
    c.disconnect();
  });
});
