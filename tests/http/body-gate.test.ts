// Issue 18 items 6 and 7, over real HTTP: every request body goes through one gate
// (src/http/body/), which checks the token before reading, holds each route to its own limit,
// and refuses JSON nested too deeply before anything walks it.
import { beforeAll, describe, expect, test } from "bun:test";
import { BodyGate } from "../../src/http/body/gate.ts";
import { BODY_RULES } from "../../src/http/body/rules.ts";
import { createLogger } from "../../src/observability/log.ts";
import { registerUser } from "../support/app.ts";
import { listeningApp } from "../support/listening.ts";
import { rawRequest } from "../support/raw-http.ts";

const t = listeningApp({ SIGNUP_RATE_LIMIT: "1000" });
/** Lines logged as errors (a 500 is logged with its stack). */
const errorLines: string[] = [];
let token: string;
let name: string;

beforeAll(async () => {
  t.ctx.log = createLogger({ level: "warn", format: "text" }, (level, line) => {
    if (level === "error") errorLines.push(line);
  });
  const me = await registerUser(t);
  token = me.token;
  name = me.user.name;
});

const DEPTH = 50_000;
const deepBodies: Record<string, string> = {
  arrays: "[".repeat(DEPTH) + "]".repeat(DEPTH),
  objects: '{"a":'.repeat(DEPTH) + "1" + "}".repeat(DEPTH),
  "a field": `{"name":${"[".repeat(DEPTH)}${"]".repeat(DEPTH)},"userId":1,"allowFrom":"everyone"}`,
};

/** The /api routes that take a body without a session. */
const PUBLIC = new Set(["POST /api/auth/register", "POST /api/auth/login", "POST /api/guest/create"]);
const guarded = (key: string) => key.includes(" /api/") && !PUBLIC.has(key);
const split = (key: string) => key.split(" ") as [string, string];
const fill = (path: string) => path.replace(/:[a-zA-Z]+/g, "1").replace("*", "x");

/** Every route of the app that can carry a body, as "METHOD /path", logout last (it ends the session). */
function bodyRoutes(): string[] {
  const keys = t.app.routes.filter((r) => !["GET", "HEAD", "WS"].includes(r.method)).map((r) => `${r.method} ${r.path}`);
  return [...keys.filter((k) => !k.endsWith("/logout")), ...keys.filter((k) => k.endsWith("/logout"))];
}

describe("JSON nested 50,000 deep", () => {
  // The routes of the issue, then every other route that reads JSON or a form.
  const routes = [
    "PUT /api/users/profile",
    "PUT /api/users/nudity-blur",
    "PUT /api/users/privacy",
    "POST /api/blocks",
    "POST /auth/login",
    "POST /auth/register",
    "POST /auth/guest",
    "POST /api/reports",
    ...Object.keys(BODY_RULES).filter((k) => ["json", "form"].includes(BODY_RULES[k]!.kind)),
  ];

  test("answers 400 validation on every route that reads JSON, signed in or not, and logs no error", async () => {
    const failures: string[] = [];
    for (const key of [...new Set(routes)].sort((a, b) => Number(a.endsWith("/logout")) - Number(b.endsWith("/logout")))) {
      const [method, path] = split(key);
      for (const [label, body] of Object.entries(deepBodies)) {
        const headers: Record<string, string> = { "content-type": "application/json" };
        if (guarded(key)) headers.authorization = `Bearer ${token}`;
        const r = await fetch(t.url + path, { method, headers, body });
        const answer = await r.text();
        if (r.status !== 400 || !answer.includes('"code":"validation"')) failures.push(`${key} (${label}) -> ${r.status} ${answer.slice(0, 100)}`);
      }
    }
    expect(failures).toEqual([]);
    expect(errorLines).toEqual([]);
  }, 60_000);
});

describe("body limits", () => {
  test("a route that can carry a body and has no rule stops the app from being built, and every rule names a route", () => {
    expect(() => new BodyGate(t.ctx).seal([{ method: "POST", path: "/api/new-thing" }])).toThrow("POST /api/new-thing");
    expect(() => new BodyGate(t.ctx).seal([{ method: "GET", path: "/api/new-thing" }])).not.toThrow();
    const routes = new Set(bodyRoutes());
    expect(Object.keys(BODY_RULES).filter((key) => !routes.has(key))).toEqual([]);
  });

  test("every route that can carry a body answers a promised 20 MB without reading it: 401 behind the bearer guard", async () => {
    const routes = bodyRoutes();
    expect(routes.length).toBeGreaterThan(20);
    const failures: string[] = [];
    for (const key of routes) {
      const [method, path] = split(key);
      // The head promises 20 MB and no byte of it is ever sent: any answer was made without it.
      const r = await rawRequest(t.listen().port, method, fill(path), { "content-type": "application/json", "content-length": String(20 * 1024 * 1024) }, "", 3000).catch(
        (error: Error) => ({ status: 0, body: error.message, ms: 0 }),
      );
      // The polling fallback's send checks its bearer token itself before reading (realtime/poll-routes.ts).
      const expected = guarded(key) || key === "POST /ws/poll/send" ? [401] : [404, 413];
      if (!expected.includes(r.status)) failures.push(`${key} -> ${r.status} ${r.body.slice(0, 100)}`);
    }
    expect(failures).toEqual([]);
  }, 60_000);

  test("a GET that promises a body is answered without it", async () => {
    const promise = { "content-type": "application/json", "content-length": String(20 * 1024 * 1024) };
    expect((await rawRequest(t.listen().port, "GET", "/api/users", promise, "", 3000)).status).toBe(401);
    expect((await rawRequest(t.listen().port, "GET", "/api/users", { ...promise, authorization: `Bearer ${token}` }, "", 3000)).status).toBe(200);
  });

  test("a signed-in JSON body past the route's limit is refused with 413 before it is parsed", async () => {
    const failures: string[] = [];
    const auth = { authorization: `Bearer ${token}`, "content-type": "application/json" };
    for (const [key, rule] of Object.entries(BODY_RULES)) {
      if (rule.kind !== "json" || !guarded(key)) continue;
      const [method, path] = split(key);
      // Declared past the limit and never sent.
      const promised = await rawRequest(t.listen().port, method, path, { ...auth, "content-length": String(rule.max + 1) }, "", 3000);
      // Sent, with a length, and unfinished: parsed, it would be a 400.
      const unfinished = `{"name":"${"x".repeat(rule.max)}`;
      const sent = await fetch(t.url + path, { method, headers: auth, body: unfinished });
      // Sent in chunks with no length at all: counted while it arrives.
      const chunks = new ReadableStream<Uint8Array>({
        start(controller) {
          for (let i = 0; i < 8; i++) controller.enqueue(new TextEncoder().encode(unfinished.slice((i * unfinished.length) / 8, ((i + 1) * unfinished.length) / 8)));
          controller.close();
        },
      });
      const chunked = await fetch(t.url + path, { method, headers: auth, body: chunks });
      for (const [how, status, text] of [["promised", promised.status, promised.body], ["sent", sent.status, await sent.text()], ["chunked", chunked.status, await chunked.text()]] as const) {
        if (status !== 413 || !text.includes('"code":"too_large"')) failures.push(`${key} ${how} -> ${status} ${text.slice(0, 100)}`);
      }
    }
    expect(failures).toEqual([]);
    const me = await fetch(`${t.url}/api/auth/me`, { headers: { authorization: `Bearer ${token}` } });
    expect(((await me.json()) as { user: { name: string } }).user.name).toBe(name);
  }, 60_000);

  test("a body within the limit still works, and the sign-in routes still take JSON only", async () => {
    const auth = { authorization: `Bearer ${token}`, "content-type": "application/json" };
    const ok = await fetch(`${t.url}/api/users/profile`, { method: "PUT", headers: auth, body: JSON.stringify({ name: "Within Limits" }) });
    expect(ok.status).toBe(200);
    const form = await fetch(`${t.url}/api/users/privacy`, { method: "PUT", headers: { ...auth, "content-type": "application/x-www-form-urlencoded" }, body: "allowFrom=contacts" });
    expect(form.status).toBe(415);
    name = "Within Limits";
  });
});
