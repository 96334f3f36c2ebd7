// The client's performance metrics (spec section 9): bounded samples, thresholds, quiet logging,
// route kinds without ids, and the hooks in the API and realtime clients.
import { describe, expect, test } from "bun:test";
import { createApi } from "../../islands/lib/api.ts";
import { RealtimeClient, type SocketLike } from "../../islands/lib/socket.ts";
import { createPerf, LOG_INTERVAL_MS, MAX_KINDS, perf, routeKind, SAMPLES_PER_KIND } from "../../islands/lib/perf.ts";

function recorder() {
  let now = 0;
  const lines: { level: "warn" | "debug"; text: string }[] = [];
  const p = createPerf(() => now, {
    warn: (text: string) => lines.push({ level: "warn", text }),
    debug: (text: string) => lines.push({ level: "debug", text }),
  });
  return { p, lines, advance: (ms: number) => (now += ms) };
}

describe("performance metrics", () => {
  test("keep only the last 100 samples of a kind", () => {
    const { p } = recorder();
    for (let i = 0; i < 150; i++) p.record("api GET /api/users", i < 50 ? 400 : 100);
    expect(p.summary()["api GET /api/users"]).toEqual({ count: SAMPLES_PER_KIND, averageMs: 100, maxMs: 100, lastMs: 100 });
  });

  test("a stopwatch records the time on the clock between start and stop", () => {
    const { p, advance } = recorder();
    const stop = p.start("ack send_message");
    advance(120);
    stop();
    expect(p.summary()["ack send_message"]?.lastMs).toBe(120);
  });

  test("warn once the average passes 1000 ms, and not again for a minute", () => {
    const { p, lines, advance } = recorder();
    p.record("first_load", 1000);
    expect(lines).toEqual([{ level: "debug", text: "[perf] first_load: 1000 ms" }]);
    p.record("first_load", 1200);
    expect(lines.at(-1)).toEqual({ level: "warn", text: "[perf] first_load: 1100 ms on average over the last 2" });
    for (let i = 0; i < 50; i++) p.record("first_load", 3000);
    expect(lines).toHaveLength(2);
    advance(LOG_INTERVAL_MS);
    p.record("first_load", 3000);
    expect(lines.map((l) => l.level)).toEqual(["debug", "warn", "warn"]);
  });

  test("a sample above 500 ms gives one debug line a minute; one of 500 ms or less none", () => {
    const { p, lines, advance } = recorder();
    for (let i = 0; i < 30; i++) p.record("api GET /api/users", 100);
    p.record("api GET /api/users", 500);
    expect(lines).toEqual([]);
    p.record("api GET /api/users", 700);
    p.record("api GET /api/users", 800);
    expect(lines).toEqual([{ level: "debug", text: "[perf] api GET /api/users: 700 ms" }]);
    advance(LOG_INTERVAL_MS - 1);
    p.record("api GET /api/users", 900);
    expect(lines).toHaveLength(1);
    advance(1);
    p.record("api GET /api/users", 900);
    expect(lines).toHaveLength(2);
  });

  test("each kind is logged on its own schedule", () => {
    const { p, lines } = recorder();
    p.record("a", 600);
    p.record("b", 600);
    expect(lines.map((l) => l.text)).toEqual(["[perf] a: 600 ms", "[perf] b: 600 ms"]);
  });

  test("hold a bounded number of kinds and ignore impossible durations", () => {
    const { p } = recorder();
    for (let i = 0; i < MAX_KINDS + 20; i++) p.record(`kind ${i}`, 1);
    p.record("kind 0", Number.NaN);
    p.record("kind 0", -5);
    const summary = p.summary();
    expect(Object.keys(summary)).toHaveLength(MAX_KINDS);
    expect(summary["kind 0"]?.count).toBe(1);
  });

  test("API calls are grouped by route, ids and query strings left out", () => {
    expect(routeKind("GET", "/api/messages/42?limit=50&before=2026-01-01")).toBe("api GET /api/messages/:id");
    expect(routeKind("PUT", "/api/messages/mark-read/7")).toBe("api PUT /api/messages/mark-read/:id");
    expect(routeKind("POST", "/api/warnings/3/acknowledge")).toBe("api POST /api/warnings/:id/acknowledge");
    expect(routeKind("GET", "/api/users")).toBe("api GET /api/users");
  });

  test("the API client records each call, failed ones too, under its route", async () => {
    const api = createApi("t", async (path) => new Response(JSON.stringify(path.includes("/99") ? { error: "Not found" } : { user: {} }), { status: path.includes("/99") ? 404 : 200 }));
    const before = perf.summary()["api GET /api/users/:id"]?.count ?? 0;
    await api.user(5);
    await api.user(99).catch(() => {});
    expect(perf.summary()["api GET /api/users/:id"]?.count).toBe(before + 2);
  });

  test("the realtime client records the time from sending a message to its ack", async () => {
    const socket = new (class implements SocketLike {
      readyState = 0;
      onopen: ((ev: Event) => void) | null = null;
      onclose: ((ev: CloseEvent) => void) | null = null;
      onmessage: ((ev: MessageEvent) => void) | null = null;
      onerror: ((ev: Event) => void) | null = null;
      send() {}
      close() {}
      opened() {
        this.readyState = 1;
        this.onopen?.(new Event("open"));
      }
      answer(frame: object) {
        this.onmessage?.({ data: JSON.stringify(frame) } as MessageEvent);
      }
    })();
    const client = new RealtimeClient({ url: "ws://test/ws", createSocket: () => socket });
    client.connect();
    socket.opened();
    const before = perf.summary()["ack send_message"]?.count ?? 0;
    const sent = client.request("send_message", { receiverId: 2, content: "hi" });
    socket.answer({ ack: 1, data: { message: {} } });
    await sent;
    expect(perf.summary()["ack send_message"]?.count).toBe(before + 1);
    client.disconnect();
  });
});
