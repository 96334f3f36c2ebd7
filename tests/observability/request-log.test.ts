// Request ids and request log lines, through the real app (app.handle).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createLogger } from "../../src/observability/log.ts";
import { makeTestApp, registerUser, type TestApp, type TestResponse } from "../support/app.ts";
import { until } from "../support/until.ts";

let t: TestApp;
let lines: string[] = [];
let token = "";

beforeAll(async () => {
  t = makeTestApp({ SIGNUP_RATE_LIMIT: "2" });
  t.ctx.log = createLogger({ level: "debug", format: "json" }, (_level, line) => lines.push(line));
  token = (await registerUser(t)).token;
});
afterAll(() => t.close());

const parsed = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>);
/** Waits for the request line of each answer: it is written after the answer is sent. */
const logged = (...responses: TestResponse[]) =>
  until(() => responses.every((r) => parsed().some((l) => l.msg === "request" && l.request_id === r.headers.get("x-request-id"))), "the request lines");

describe("request ids and request lines", () => {
  test("every answer carries a fresh request id, and its log line has it with method, path, status and time", async () => {
    lines = [];
    const response = await t.call("GET", "/api/auth/me?token=not-for-logs", { token });
    await logged(response);
    const id = response.headers.get("x-request-id")!;
    expect(id).toMatch(/^[0-9a-f]{16}$/);
    const line = parsed().find((l) => l.request_id === id);
    expect(line).toMatchObject({ level: "debug", msg: "request", method: "GET", path: "/api/auth/me", status: 200 });
    expect(typeof line!.ms).toBe("number");
    const other = await t.call("GET", "/healthz");
    expect(other.headers.get("x-request-id")).not.toBe(id);
  });

  test("a well-formed X-Request-Id from a proxy round-trips; a malformed one is replaced", async () => {
    lines = [];
    const kept = await t.call("GET", "/healthz", { headers: { "x-request-id": "edge-7f3a-0001" } });
    expect(kept.headers.get("x-request-id")).toBe("edge-7f3a-0001");
    const replaced = await t.call("GET", "/healthz", { headers: { "x-request-id": "bad id\" injected=1" } });
    expect(replaced.headers.get("x-request-id")).toMatch(/^[0-9a-f]{16}$/);
    await logged(kept, replaced);
    expect(parsed().map((l) => l.request_id)).toContain("edge-7f3a-0001");
    expect(lines.join("\n")).not.toContain("injected");
  });

  test("error answers (404, 400) carry the id and log their real status", async () => {
    lines = [];
    const missing = await t.call("GET", "/api/nothing-here");
    const malformed = await t.call("POST", "/api/auth/login", { json: "{not json" });
    await logged(missing, malformed);
    for (const [response, status] of [[missing, 404], [malformed, 400]] as const) {
      expect(response.status).toBe(status);
      const id = response.headers.get("x-request-id");
      expect(parsed().find((l) => l.request_id === id)).toMatchObject({ status });
    }
  });

  test("never writes passwords, tokens, cookies or message text", async () => {
    lines = [];
    const answers = [
      await t.call("POST", "/api/auth/login", { json: { username: "nobody-here", password: "hunter2-secret-pw" }, headers: { cookie: "sid=cookie-secret-value" } }),
      await t.call("GET", "/api/messages/1?token=query-secret", { token, headers: { "x-request-id": "secret-scan-0001" } }),
      await t.call("GET", "/appeal/12.c2VjcmV0LWFwcGVhbC10b2tlbi12YWx1ZQ"),
    ];
    await logged(...answers);
    const all = lines.join("\n");
    expect(lines.length).toBeGreaterThanOrEqual(3);
    for (const secret of ["hunter2", "cookie-secret", "query-secret", token, "c2VjcmV0LWFwcGVhbC10b2tlbi12YWx1ZQ", "Bearer"]) expect(all).not.toContain(secret);
  });

  test("a server error logs its stack with the request id, and the answer says nothing of it", async () => {
    lines = [];
    const broadcast = t.ctx.hub.broadcast;
    t.ctx.hub.broadcast = () => {
      throw new Error("hub exploded");
    };
    try {
      const response = await t.call("POST", "/api/guest/create", { json: { gender: "male", adult: true } });
      await logged(response);
      expect(response.status).toBe(500);
      expect(response.text).not.toContain("exploded");
      const id = response.headers.get("x-request-id");
      const failure = parsed().find((l) => l.msg === "request failed");
      expect(failure).toMatchObject({ level: "error", request_id: id, method: "POST", path: "/api/guest/create", error: "Error: hub exploded" });
      expect(String(failure!.stack)).toContain(" at ");
      expect(parsed().find((l) => l.msg === "request" && l.request_id === id)).toMatchObject({ level: "warn", status: 500 });
    } finally {
      t.ctx.hub.broadcast = broadcast;
    }
  });

  test("at the default level a fast, successful request writes nothing", async () => {
    const quiet: string[] = [];
    const logger = createLogger({ level: "info", format: "text" }, (_level, line) => quiet.push(line));
    // The request line is decided after the answer: once the hook asked the logger, it is done.
    const asked: string[] = [];
    t.ctx.log = { ...logger, enabled: (level) => (asked.push(level), logger.enabled(level)) };
    await t.call("GET", "/healthz");
    await until(() => asked.length > 0, "the request's log decision");
    expect(asked).toEqual(["debug"]);
    expect(quiet).toEqual([]);
    t.ctx.log = createLogger({ level: "debug", format: "json" }, (_level, line) => lines.push(line));
  });

  test("each HTTP 429 counts as a refusal labelled by its route", async () => {
    // Its own app: spending the guest sign-ups here would turn the other tests' guest sign-up into a 429.
    const own = makeTestApp({ SIGNUP_RATE_LIMIT: "2" });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) statuses.push((await own.call("POST", "/api/guest/create", { json: { gender: "female", adult: true } })).status);
      expect(statuses).toEqual([201, 201, 429]);
      // Counted after the answer is sent.
      const counted = /webchat_rate_limit_refusals_total\{scope="http",limiter="POST \/api\/guest\/create"\} 1$/m;
      await until(() => counted.test(own.ctx.metrics.registry.render()), "the refusal being counted");
    } finally {
      await own.close();
    }
  });
});
