// GET /metrics on a real listening server: the format, counters that move with real traffic,
// and who may read it.
import { afterAll, afterEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { makeTestApp } from "../support/app.ts";
import { connectedUser, listeningApp } from "../support/listening.ts";
import { until } from "../support/until.ts";

// Registering hashes passwords: slow on a busy machine.
setDefaultTimeout(20_000);

const t = listeningApp({ SIGNUP_RATE_LIMIT: "1000" });
// A test's sockets are gone on the server (and their users offline) before the next test counts.
afterEach(() => until(() => t.ctx.hub.openSockets === 0 && t.ctx.hub.usersOnline === 0, "the test's sockets closed and their users offline"));

async function scrape(): Promise<{ status: number; type: string | null; values: Map<string, number> }> {
  const response = await fetch(`${t.url}/metrics`);
  const text = await response.text();
  const values = new Map<string, number>();
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const cut = line.lastIndexOf(" ");
    values.set(line.slice(0, cut), Number(line.slice(cut + 1)));
  }
  return { status: response.status, type: response.headers.get("content-type"), values };
}

describe("/metrics", () => {
  test("speaks the Prometheus text format to a loopback client", async () => {
    const { status, type, values } = await scrape();
    expect(status).toBe(200);
    expect(type).toBe("text/plain; version=0.0.4; charset=utf-8");
    for (const name of ["webchat_sockets_open", "webchat_users_online", "webchat_messages_stored_total", "webchat_message_ack_seconds_count", "webchat_roulette_waiting", "webchat_roulette_pairs_total", "webchat_event_loop_lag_seconds_count", "process_resident_memory_bytes", "webchat_heap_used_bytes"]) {
      expect(values.has(name)).toBe(true);
    }
    expect(values.get("process_resident_memory_bytes")!).toBeGreaterThan(1_000_000);
  });

  test("sockets, presence, stored messages and ack latency move when a message is sent over a socket", async () => {
    const before = (await scrape()).values;
    const ann = await connectedUser(t, { name: "Metric Ann" });
    // Both counted: connect waits until the server holds each socket.
    const bob = await connectedUser(t, { name: "Metric Bob" });
    const during = (await scrape()).values;
    expect(during.get("webchat_sockets_open")! - before.get("webchat_sockets_open")!).toBe(2);
    expect(during.get("webchat_users_online")! - before.get("webchat_users_online")!).toBe(2);
    const ack = await ann.s.ask("send_message", { receiverId: bob.user.id, content: "counted, never logged" });
    expect(ack.data.message.id).toBeGreaterThan(0);
    const after = (await scrape()).values;
    expect(after.get("webchat_messages_stored_total")! - before.get("webchat_messages_stored_total")!).toBe(1);
    expect(after.get("webchat_message_ack_seconds_count")! - before.get("webchat_message_ack_seconds_count")!).toBe(1);
    expect(after.get('webchat_message_ack_seconds_bucket{le="1"}')! - before.get('webchat_message_ack_seconds_bucket{le="1"}')!).toBe(1);
    ann.s.close();
    bob.s.close();
  });

  test("roulette waiting and pairs are read from the queue", async () => {
    const a = await connectedUser(t, { gender: "male" });
    const b = await connectedUser(t, { gender: "female" });
    const pairs = (await scrape()).values.get("webchat_roulette_pairs_total")!;
    await a.s.ask("roulette_search", { userId: a.user.id, filters: { gender: "any", country: "any" } });
    expect((await scrape()).values.get("webchat_roulette_waiting")).toBe(1);
    await b.s.ask("roulette_search", { userId: b.user.id, filters: { gender: "any", country: "any" } });
    const after = (await scrape()).values;
    expect(after.get("webchat_roulette_waiting")).toBe(0);
    expect(after.get("webchat_roulette_pairs_total")).toBe(pairs + 1);
    a.s.close();
    b.s.close();
  });

  test("counts socket frames refused by the event budget", async () => {
    const flooder = await connectedUser(t);
    const before = (await scrape()).values.get('webchat_rate_limit_refusals_total{scope="socket",limiter="ws_frames"}')!;
    for (let i = 0; i < 60; i++) flooder.s.send("ping");
    await flooder.s.next("error", undefined, (f) => f.data.code === "rate_limited");
    const after = (await scrape()).values.get('webchat_rate_limit_refusals_total{scope="socket",limiter="ws_frames"}')!;
    expect(after).toBeGreaterThan(before);
    flooder.s.close();
  });

  test("samples event loop lag while the server listens", async () => {
    // Sampled on a timer: wait for the first sample, however busy the machine, then read it as a scraper does.
    await until(() => /webchat_event_loop_lag_seconds_count [1-9]/.test(t.ctx.metrics.registry.render()), "the first lag sample");
    expect((await scrape()).values.get("webchat_event_loop_lag_seconds_count")!).toBeGreaterThan(0);
  });
});

describe("who may read /metrics", () => {
  const tokenApp = makeTestApp({ METRICS_TOKEN: "scrape-token-0123456789" });
  const proxied = makeTestApp({ TRUST_PROXY: "true" });
  afterAll(async () => {
    await tokenApp.close();
    await proxied.close();
  });

  test("without METRICS_TOKEN, a client not on this machine is refused, whatever X-Forwarded-For claims", async () => {
    // app.handle has no socket: the client is nowhere near loopback.
    const response = await t.call("GET", "/metrics", { headers: { "x-forwarded-for": "127.0.0.1" } });
    expect(response.status).toBe(403);
    expect(response.body.code).toBe("forbidden");
    expect(response.text).not.toContain("webchat_");
  });

  test("behind a trusted proxy, loopback proves nothing: without METRICS_TOKEN nobody reads it", async () => {
    const { url } = proxied.listen();
    for (const headers of [{} as Record<string, string>, { "x-forwarded-for": "203.0.113.9" }, { "x-forwarded-for": "203.0.113.9, 127.0.0.1" }]) {
      const response = await fetch(`${url}/metrics`, { headers });
      expect(response.status).toBe(403);
      expect((await response.json()).error).toContain("METRICS_TOKEN");
    }
  });

  test("with METRICS_TOKEN, only the right bearer token reads it, even from loopback", async () => {
    const { url } = tokenApp.listen();
    const missing = await fetch(`${url}/metrics`);
    expect(missing.status).toBe(401);
    expect(missing.headers.get("www-authenticate")).toBe('Bearer realm="metrics"');
    const wrong = await fetch(`${url}/metrics`, { headers: { authorization: "Bearer scrape-token-0123456788" } });
    expect(wrong.status).toBe(401);
    const short = await fetch(`${url}/metrics`, { headers: { authorization: "Bearer scrape" } });
    expect(short.status).toBe(401);
    const right = await tokenApp.call("GET", "/metrics", { token: "scrape-token-0123456789" });
    expect(right.status).toBe(200);
    expect(right.text).toContain("# TYPE webchat_messages_stored_total counter");
  });
});
