// GET /api/ice: fresh TURN credentials in the TURN REST scheme coturn checks, for signed-in
// browsers only, rate limited per user; and the configuration that turns the relay on.
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { createHmac } from "node:crypto";
import { loginAs, makeTestApp, registerUser } from "../support/app.ts";
import { loadConfig } from "../../src/config.ts";
import { ICE_REQUESTS_PER_MINUTE } from "../../src/ice/index.ts";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

setDefaultTimeout(20_000);

const SECRET = "turn-shared-secret-turn-shared-secret-0123";
const URLS = "turn:turn.chat.test:3478?transport=udp,turns:turn.chat.test:5349?transport=tcp";
const t = makeTestApp({ TURN_URLS: URLS, TURN_SECRET: SECRET, TURN_TTL_SECONDS: "600", SIGNUP_RATE_LIMIT: "1000" });
const plain = makeTestApp({ SIGNUP_RATE_LIMIT: "1000" });
afterAll(() => Promise.all([t.close(), plain.close()]));

const turnServer = (body: { iceServers: { urls: string | string[]; username?: string; credential?: string }[] }) =>
  body.iceServers.find((s) => [s.urls].flat().some((u) => u.startsWith("turn")));

describe("GET /api/ice", () => {
  test("hands a signed-in user TURN credentials that verify with HMAC-SHA1 of the username under TURN_SECRET", async () => {
    const { token } = await registerUser(t);
    const before = Math.floor(Date.now() / 1000);
    const r = await t.call("GET", "/api/ice", { token });
    expect(r.status).toBe(200);
    expect(r.headers.get("cache-control")).toBe("no-store");
    expect(r.body.iceTransportPolicy).toBe("relay");
    const server = turnServer(r.body)!;
    expect(server.urls).toEqual(URLS.split(","));
    const [expiry, id] = server.username!.split(":");
    expect(server.credential).toBe(createHmac("sha1", SECRET).update(server.username!).digest("base64"));
    // Expires after TURN_TTL_SECONDS, and expiresAt says when.
    expect(Number(expiry) - before).toBeGreaterThanOrEqual(600);
    expect(Number(expiry) - before).toBeLessThanOrEqual(602);
    expect(Date.parse(r.body.expiresAt)).toBe(Number(expiry) * 1000);
    expect(id).toMatch(/^[A-Za-z0-9_-]{16,}$/);
  });

  test("names the session with an opaque id that never reveals the user id", async () => {
    const a = await registerUser(t);
    const again = await loginAs(t, a.user.username);
    const first = turnServer((await t.call("GET", "/api/ice", { token: a.token })).body)!.username!.split(":")[1]!;
    const same = turnServer((await t.call("GET", "/api/ice", { token: a.token })).body)!.username!.split(":")[1]!;
    const other = turnServer((await t.call("GET", "/api/ice", { token: again.body.token })).body)!.username!.split(":")[1]!;
    expect(same).toBe(first);
    expect(other).not.toBe(first);
    // A keyed hash of the session: the same length for every user, with no id or name in it.
    for (const id of [first, other]) {
      expect(id).toHaveLength(22);
      expect(id).not.toBe(String(a.user.id));
      expect(id).not.toContain(a.user.username);
    }
  });

  test("refuses a request without a session", async () => {
    const r = await t.call("GET", "/api/ice");
    expect(r.status).toBe(401);
    expect(r.body.code).toBe("unauthorized");
    expect(JSON.stringify(r.body)).not.toContain("turn:");
  });

  test(`is rate limited to ${ICE_REQUESTS_PER_MINUTE} a minute per user, with Retry-After`, async () => {
    const { token } = await registerUser(t);
    for (let i = 0; i < ICE_REQUESTS_PER_MINUTE; i++) expect((await t.call("GET", "/api/ice", { token })).status).toBe(200);
    const refused = await t.call("GET", "/api/ice", { token });
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe("rate_limited");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    // Another user is not affected.
    const other = await registerUser(t);
    expect((await t.call("GET", "/api/ice", { token: other.token })).status).toBe(200);
  });

  test("without a relay answers the policy all, the configured servers and no expiry", async () => {
    const { token } = await registerUser(plain);
    const r = await plain.call("GET", "/api/ice", { token });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ iceServers: [{ urls: "stun:stun.l.google.com:19302" }], iceTransportPolicy: "all", expiresAt: null });
  });

  test("puts no TURN credential in the chat page's props", async () => {
    const { token } = await registerUser(t);
    const page = await t.call("GET", "/", { headers: { cookie: `sid=${token}` } });
    expect(page.status).toBe(200);
    expect(page.text).not.toContain("turn.chat.test");
    expect(page.text).toContain('"iceTransportPolicy":"relay"');
  });
});

describe("the relay's configuration", () => {
  const env = (extra: Record<string, string>) => ({ DATA_DIR: mkdtempSync(join(tmpdir(), "webchat-ice-")), JWT_SECRET: "x".repeat(40), ...extra });

  test("makes relay the policy by default once TURN_URLS is set, and all without it", () => {
    expect(loadConfig(env({ TURN_URLS: URLS, TURN_SECRET: SECRET })).iceTransportPolicy).toBe("relay");
    expect(loadConfig(env({})).iceTransportPolicy).toBe("all");
    expect(loadConfig(env({ TURN_URLS: URLS, TURN_SECRET: SECRET, ICE_TRANSPORT_POLICY: "all" })).iceTransportPolicy).toBe("all");
  });

  test("keeps TURN_TTL_SECONDS at a day unless told otherwise", () => {
    expect(loadConfig(env({ TURN_URLS: URLS, TURN_SECRET: SECRET })).turn?.ttlSeconds).toBe(86_400);
  });

  test("refuses to start with a short secret, no secret, a secret alone or a URL that is not TURN", () => {
    expect(() => loadConfig(env({ TURN_URLS: URLS, TURN_SECRET: "short" }))).toThrow(/TURN_SECRET/);
    expect(() => loadConfig(env({ TURN_URLS: URLS }))).toThrow(/TURN_SECRET/);
    expect(() => loadConfig(env({ TURN_SECRET: SECRET }))).toThrow(/TURN_URLS/);
    expect(() => loadConfig(env({ TURN_URLS: "https://turn.chat.test", TURN_SECRET: SECRET }))).toThrow(/TURN_URLS/);
    expect(() => loadConfig(env({ TURN_URLS: URLS, TURN_SECRET: SECRET, TURN_TTL_SECONDS: "5" }))).toThrow(/TURN_TTL_SECONDS/);
  });
});
