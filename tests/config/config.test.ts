import { describe, expect, test } from "bun:test";
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { ConfigError, loadConfig } from "../../src/config.ts";
import { tempDirsForFile } from "../support/temp-dirs.ts";

const dir = tempDirsForFile("webchat-config-");

describe("configuration", () => {
  test("has the documented defaults", () => {
    const c = loadConfig({ DATA_DIR: dir() });
    expect(c.port).toBe(5001);
    expect(c.trustProxy).toBe(false);
    expect(c.signupPerHour).toBe(100);
    expect(c.loginFailLimit).toBe(10);
    expect(c.loginFailWindowMs).toBe(15 * 60_000);
    expect(c.loginFailAccountLimit).toBe(50);
    expect(c.sessionTtlMs).toBe(30 * 86_400_000);
    expect(c.profileReadsPerMinute).toBe(120);
    expect(c.socketRate).toEqual({ perSecond: 20, burst: 40 });
    expect(c.uploadsPerMinute).toBe(60);
    expect(c.reportsPerHour).toBe(20);
    expect(c.reportAutoSuspend).toBe(3);
    expect(c.rouletteWaiting).toEqual({ perAddress: 3, perDevice: 1 });
    expect(c.callRingMs).toBe(60_000);
    expect(c.iceTransportPolicy).toBe("all");
    expect(c.iceServers.length).toBe(1);
  });

  test("presence reaches strangers in batches of 30 to 60 s unless PRESENCE_BATCH_SECONDS says otherwise, and a wrong value is refused", () => {
    expect(loadConfig({ DATA_DIR: dir() }).presenceBatch).toEqual({ minMs: 30_000, maxMs: 60_000 });
    expect(loadConfig({ DATA_DIR: dir(), PRESENCE_BATCH_SECONDS: "10:20" }).presenceBatch).toEqual({ minMs: 10_000, maxMs: 20_000 });
    expect(loadConfig({ DATA_DIR: dir(), PRESENCE_BATCH_SECONDS: "0" }).presenceBatch).toEqual({ minMs: 0, maxMs: 0 });
    for (const bad of ["20:10", "x", "-1", "1:9999", "1.5"]) expect(() => loadConfig({ DATA_DIR: dir(), PRESENCE_BATCH_SECONDS: bad })).toThrow(ConfigError);
  });

  test("generates a signing secret once, kept owner-only in DATA_DIR", () => {
    const d = dir();
    const first = loadConfig({ DATA_DIR: d }).secret;
    const second = loadConfig({ DATA_DIR: d }).secret;
    expect(first).toBe(second);
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(readFileSync(join(d, "secret.key"), "utf8").trim()).toBe(first);
    expect(statSync(join(d, "secret.key")).mode & 0o777).toBe(0o600);
  });

  test("prefers JWT_SECRET and refuses a short one", () => {
    expect(loadConfig({ DATA_DIR: dir(), JWT_SECRET: "s".repeat(40) }).secret).toBe("s".repeat(40));
    expect(() => loadConfig({ DATA_DIR: dir(), JWT_SECRET: "short" })).toThrow(ConfigError);
  });

  test.each([
    [{ PORT: "abc" }, /PORT/],
    [{ PORT: "70000" }, /PORT/],
    [{ TRUST_PROXY: "maybe" }, /TRUST_PROXY/],
    [{ ALLOWED_ORIGINS: "not a url" }, /ALLOWED_ORIGINS/],
    [{ SOCKET_RATE_LIMIT: "fast" }, /SOCKET_RATE_LIMIT/],
    [{ ICE_SERVERS: "{" }, /ICE_SERVERS/],
    [{ ICE_SERVERS: '[{"url":1}]' }, /ICE_SERVERS/],
    [{ ICE_TRANSPORT_POLICY: "sometimes" }, /ICE_TRANSPORT_POLICY/],
    [{ CONTACT_EMAIL: "nobody" }, /CONTACT_EMAIL/],
    [{ REPORT_RATE_LIMIT: "0" }, /REPORT_RATE_LIMIT/],
    [{ REPORT_AUTO_SUSPEND: "three" }, /REPORT_AUTO_SUSPEND/],
    [{ CALL_RING_SECONDS: "0" }, /CALL_RING_SECONDS/],
    [{ REPORT_RETENTION_DAYS: "-1" }, /REPORT_RETENTION_DAYS/],
    [{ LOGIN_FAIL_ACCOUNT_LIMIT: "0" }, /LOGIN_FAIL_ACCOUNT_LIMIT/],
    [{ SESSION_TTL_DAYS: "0" }, /SESSION_TTL_DAYS/],
    [{ SESSION_TTL_DAYS: "thirty" }, /SESSION_TTL_DAYS/],
    [{ PROFILE_RATE_LIMIT: "-3" }, /PROFILE_RATE_LIMIT/],
    [{ METRICS_TOKEN: "short" }, /METRICS_TOKEN/],
    [{ METRICS_TOKEN: "has a space in the middle" }, /METRICS_TOKEN/],
    [{ LOG_FORMAT: "xml" }, /LOG_FORMAT/],
    [{ LOG_LEVEL: "loud" }, /LOG_LEVEL/],
  ])("stops on a bad value with one line naming it: %j", (env, name) => {
    expect(() => loadConfig({ DATA_DIR: dir(), ...env })).toThrow(name);
  });

  test("reads lists and policies", () => {
    const c = loadConfig({
      DATA_DIR: dir(),
      ALLOWED_ORIGINS: "https://a.example, https://b.example/",
      SOCKET_RATE_LIMIT: "5:9",
      ICE_SERVERS: '[{"urls":["turn:t.example:3478"],"username":"u","credential":"c"}]',
      ICE_TRANSPORT_POLICY: "relay",
      TRUST_PROXY: "1",
      REPORT_RATE_LIMIT: "5",
      REPORT_AUTO_SUSPEND: "4",
      ROULETTE_WAITING_PER_ADDRESS: "8",
      ROULETTE_WAITING_PER_DEVICE: "2",
      CALL_RING_SECONDS: "30",
    });
    expect(c.allowedOrigins).toEqual(["https://a.example", "https://b.example"]);
    expect(c.socketRate).toEqual({ perSecond: 5, burst: 9 });
    expect(c.iceServers[0]?.username).toBe("u");
    expect(c.iceTransportPolicy).toBe("relay");
    expect(c.trustProxy).toBe(true);
    expect(c.reportsPerHour).toBe(5);
    expect(c.reportAutoSuspend).toBe(4);
    expect(c.rouletteWaiting).toEqual({ perAddress: 8, perDevice: 2 });
    expect(c.callRingMs).toBe(30_000);
  });

  test("logs readable text at info and guards /metrics by loopback unless a token is given", () => {
    const defaults = loadConfig({ DATA_DIR: dir() });
    expect([defaults.logFormat, defaults.logLevel, defaults.metricsToken]).toEqual(["text", "info", null]);
    const set = loadConfig({ DATA_DIR: dir(), LOG_FORMAT: "JSON", LOG_LEVEL: "debug", METRICS_TOKEN: "scrape-token-0123456789" });
    expect([set.logFormat, set.logLevel, set.metricsToken]).toEqual(["json", "debug", "scrape-token-0123456789"]);
  });
});
