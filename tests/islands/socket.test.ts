import { describe, expect, test } from "bun:test";
import { RealtimeClient, reconnectDelay, type ConnectionStatus } from "../../islands/lib/socket.ts";
import { FakeSocket } from "./fake-socket.ts";
import { until, wait } from "./waits.ts";

// Timers fire in the order they fall due, however late a loaded machine runs them: `await wait(10)`
// right after something that sets a 1 ms retry ends after that retry, so a check that nothing
// more happened is ordered behind it. What the client's own interval or timeout makes happen
// is waited for with `until`.


function client(options: Partial<ConstructorParameters<typeof RealtimeClient>[0]> = {}) {
  const sockets: FakeSocket[] = [];
  const statuses: ConnectionStatus[] = [];
  const c = new RealtimeClient({
    url: "ws://test/ws?token=t",
    createSocket: () => {
      const s = new FakeSocket();
      sockets.push(s);
      return s;
    },
    ...options,
  });
  c.onStatus((s) => statuses.push(s));
  return { c, sockets, statuses };
}

describe("reconnect schedule", () => {
  test("starts at 1 s, doubles, and stays at 5 s at most over 10 attempts", () => {
    expect(Array.from({ length: 10 }, (_, i) => reconnectDelay(i + 1))).toEqual([
      1000, 2000, 4000, 5000, 5000, 5000, 5000, 5000, 5000, 5000,
    ]);
  });

  test("gives up after the last attempt and reports failure", async () => {
    const { c, sockets, statuses } = client({ baseDelayMs: 2, maxDelayMs: 8, maxAttempts: 3 });
    c.connect();
    const started: number[] = [];
    for (let i = 0; i < 4; i++) {
      await until(() => sockets.length > i, `attempt ${i + 1}`);
      started.push(performance.now());
      sockets[i]!.fail();
    }
    await wait(30);
    expect(sockets).toHaveLength(4);
    expect(statuses.at(-1)).toBe("failed");
    // The waits grow: 2, 4, 8 ms (timers may fire late, never early).
    expect(started[2]! - started[1]!).toBeGreaterThanOrEqual(3);
    expect(started[3]! - started[2]!).toBeGreaterThanOrEqual(7);
  });

  test("a successful connect resets the attempts", async () => {
    const { c, sockets, statuses } = client({ baseDelayMs: 2, maxAttempts: 1 });
    c.connect();
    sockets[0]!.fail();
    await wait(10);
    sockets[1]!.open();
    sockets[1]!.fail();
    await wait(10);
    expect(sockets).toHaveLength(3);
    expect(statuses).not.toContain("failed");
  });

  test("a socket that does not open within the connect timeout is dropped and retried", async () => {
    const { c, sockets } = client({ connectTimeoutMs: 10, baseDelayMs: 1 });
    c.connect();
    await until(() => sockets.length >= 2, "a second attempt");
    expect(sockets[0]!.readyState).toBe(3);
    c.disconnect();
  });

  test("a revoked session (close code 4401) is not retried", async () => {
    const { c, sockets, statuses } = client({ baseDelayMs: 1 });
    c.connect();
    sockets[0]!.open();
    sockets[0]!.fail(4401);
    await wait(10);
    expect(sockets).toHaveLength(1);
    expect(statuses.at(-1)).toBe("unauthorized");
  });

  test("a ban (close code 4403) is not retried, not even when the tab becomes visible again", async () => {
    const { c, sockets, statuses } = client({ baseDelayMs: 1 });
    c.connect();
    sockets[0]!.open();
    const bans: unknown[] = [];
    c.on("banned", (notice) => bans.push(notice));
    sockets[0]!.receive({ event: "banned", data: { reason: "Spam", until: null, appeal_url: "/appeal/abc" } });
    sockets[0]!.fail(4403);
    await wait(10);
    c.reconnectNow();
    await wait(10);
    expect(bans).toEqual([{ reason: "Spam", until: null, appeal_url: "/appeal/abc" }]);
    expect(sockets).toHaveLength(1);
    expect(statuses.at(-1)).toBe("banned");
  });

  test("an ordinary drop is still retried", async () => {
    const { c, sockets, statuses } = client({ baseDelayMs: 1 });
    c.connect();
    sockets[0]!.open();
    sockets[0]!.fail(1006);
    await wait(10);
    expect(sockets).toHaveLength(2);
    expect(statuses).toContain("reconnecting");
    c.disconnect();
  });

  test("disconnect stops for good", async () => {
    const { c, sockets, statuses } = client({ baseDelayMs: 1 });
    c.connect();
    sockets[0]!.open();
    c.disconnect();
    await wait(10);
    expect(sockets).toHaveLength(1);
    expect(statuses.at(-1)).toBe("closed");
  });
});

describe("frames", () => {
  test("events go out as {event, data} and arrive to their listeners", () => {
    const { c, sockets } = client();
    c.connect();
    sockets[0]!.open();
    const typing: unknown[] = [];
    const off = c.on("user_typing", (d) => typing.push(d));
    sockets[0]!.receive({ event: "user_typing", data: { userId: 2, name: "Bob", isTyping: true } });
    off();
    sockets[0]!.receive({ event: "user_typing", data: { userId: 2, name: "Bob", isTyping: false } });
    expect(typing).toEqual([{ userId: 2, name: "Bob", isTyping: true }]);
    expect(c.send("typing_start", { receiverId: 2 })).toBe(true);
    expect(sockets[0]!.frames()).toEqual([{ event: "typing_start", data: { receiverId: 2 } }]);
  });

  test("nothing is sent while disconnected", () => {
    const { c } = client();
    expect(c.send("ping", {})).toBe(false);
  });

  test("acks resolve with the data or reject with the error", async () => {
    const { c, sockets } = client();
    c.connect();
    sockets[0]!.open();
    const ok = c.request("messages_read", { senderId: 2, messageIds: [1] });
    const bad = c.request("send_message", { receiverId: 2, content: "x" });
    const [first, second] = sockets[0]!.frames();
    expect(first?.ack).toBe(1);
    expect(second?.ack).toBe(2);
    sockets[0]!.receive({ ack: 1, data: { updatedCount: 1 } });
    sockets[0]!.receive({ ack: 2, error: { code: "rate_limited", message: "Slow down" } });
    expect(await ok).toEqual({ updatedCount: 1 });
    await expect(bad).rejects.toMatchObject({ code: "rate_limited" });
  });

  test("pending acks fail when the connection drops", async () => {
    const { c, sockets } = client({ baseDelayMs: 1000 });
    c.connect();
    sockets[0]!.open();
    const pending = c.request("messages_read", { senderId: 2, messageIds: [1] });
    sockets[0]!.fail();
    await expect(pending).rejects.toMatchObject({ code: "disconnected" });
    c.disconnect();
  });

  test("pings on the interval while connected", async () => {
    const { c, sockets } = client({ pingIntervalMs: 5 });
    c.connect();
    sockets[0]!.open();
    const pings = () => sockets[0]!.frames().filter((f) => f.event === "ping").length;
    await until(() => pings() >= 2, "two pings");
    c.disconnect();
    const sent = sockets[0]!.sent.length;
    await wait(20);
    expect(sockets[0]!.sent.length).toBe(sent);
  });
});
