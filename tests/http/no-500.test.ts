// Nothing a client can send gets a 500: every route, signed in or not, with hostile bodies,
// content types, ids and query strings. Answers must be 4xx with the contract's error shape.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { makeTestApp, registerUser, type TestApp } from "../support/app.ts";

let t: TestApp;
let token: string;
let otherId: number;
beforeAll(async () => {
  t = makeTestApp({ SIGNUP_RATE_LIMIT: "1000" });
  token = (await registerUser(t)).token;
  otherId = (await registerUser(t)).user.id;
});
afterAll(() => t.close());

/**
 * Every route the app serves, read from the app itself, so a route added later is tried too:
 * `:param` becomes `{id}` and a wildcard `{path}`. WebSocket routes are upgrades, not requests
 * (realtime/ and peerjs/ tests send them their hostile frames).
 */
const routes = (): [string, string][] =>
  t.app.routes
    .filter((r) => r.method !== "WS")
    .map((r) => [r.method, r.path.replace(/:[A-Za-z]+/g, "{id}").replace(/\*$/, "{path}")] as [string, string]);

const ids = ["0", "-1", "abc", "1e3", "99999999999999999999", "%00", "..%2F..%2Fsecret.key", "%E0%A4%A", "1;DROP TABLE users"];

const bodies: { type?: string; body: string }[] = [
  { type: "application/json", body: "{" },
  { type: "application/json", body: "[]" },
  { type: "application/json", body: "null" },
  { type: "application/json", body: "12" },
  { type: "application/json", body: '"text"' },
  { type: "application/json", body: '{"name":{"$gt":""},"username":["a"],"password":true,"gender":null,"age":1e400,"receiverId":{}}' },
  { type: "application/json", body: JSON.stringify({ name: "x".repeat(100_000), username: "\u0000\uffff", country_code: "ZZ" }) },
  { type: "application/json", body: '{"username":"no500_p","email":"p@x.io","password":"password1","name":"P","gender":"male","age":30,"country_code":"DE","adult":true,"profile":{"__proto__":{"a":1},"constructor":"x","k":1e400}}' },
  { type: "application/json", body: '{"context":"roulette","reason":"spam","rouletteId":{"$ne":1},"reportedUserId":"1e999","messageId":-1,"details":[]}' },
  { type: "multipart/form-data; boundary=zzz", body: "--zzz\r\nContent-Disposition: form-data; name=\"file\"\r\n\r\nbroken" },
  { type: "multipart/form-data", body: "no boundary at all" },
  { type: "application/x-www-form-urlencoded", body: "a=%ZZ&&=&username=%00" },
  { type: "text/plain", body: "hello" },
  { type: "application/octet-stream", body: "\u0000\u0001\u0002" },
  { body: "" },
];

const queries = [
  "",
  "?limit=abc",
  "?limit=-5&before=not-a-date",
  "?before=2026-13-45T99:99:99Z",
  "?q=%25%5F%5C&minAge=x&online=maybe",
  "?country[]=a&gender[x]=1",
  "?cursor=1.99999999999999999999.1&limit=999999999",
  "?cursor[]=0.1.1&cursor=%00",
  "?cursor=0.0.1&q=%00%E2%80%AE&country=%E0%A4%A",
];

const fill = (path: string, id: string) => path.replaceAll("{id}", id).replace("{path}", `files/${id}`);

describe("no 500s", () => {
  test("the routes tried are the app's own, the ones a hand list once missed among them", () => {
    const tried = routes().map(([method, path]) => `${method} ${path}`);
    for (const route of ["PUT /api/users/nudity-blur", "GET /api/warnings", "POST /api/warnings/{id}/acknowledge", "GET /api/geo/countries", "POST /auth/logout", "POST /api/auth/logout", "GET /uploads/{path}"]) {
      expect(tried).toContain(route);
    }
    expect(tried.length).toBe(t.app.routes.filter((r) => r.method !== "WS").length);
  });

  test("every route with hostile bodies, ids and queries answers below 500 with the error shape", async () => {
    const failures: string[] = [];
    let calls = 0;
    for (const [method, path] of routes()) {
      // A signed-in user of its own for each route: a logout or a change on one route cannot
      // alter what the next one is sent, whatever order the app lists them in.
      const token = (await registerUser(t)).token;
      for (const auth of [undefined, token]) {
        for (const id of [String(otherId), ...ids]) {
          if (id !== String(otherId) && !path.includes("{")) continue;
          for (const query of method === "GET" ? queries : [""]) {
            const variants: { type?: string; body?: string }[] = method === "GET" || method === "DELETE" ? [{}] : bodies;
            for (const variant of variants) {
              const headers: Record<string, string> = variant.type ? { "content-type": variant.type } : {};
              const r = await t.call(method, fill(path, id) + query, { token: auth, body: variant.body, headers });
              calls++;
              const label = `${method} ${fill(path, id)}${query} ${variant.type ?? ""} ${auth ? "signed-in" : "anonymous"}`;
              if (r.status >= 500) failures.push(`${label} -> ${r.status} ${r.text.slice(0, 120)}`);
              else if (r.status >= 400 && path.startsWith("/api") && (typeof r.body !== "object" || typeof r.body.error !== "string" || typeof r.body.code !== "string")) {
                failures.push(`${label} -> ${r.status} without the error shape: ${r.text.slice(0, 80)}`);
              }
              if (r.text.includes("    at ") || /password_hash|\$argon2/.test(r.text)) failures.push(`${label} leaks internals`);
            }
          }
        }
      }
    }
    expect(calls).toBeGreaterThan(400);
    expect(failures).toEqual([]);
  }, 300_000);

  test("unknown paths and methods answer 404, JSON under /api and HTML elsewhere", async () => {
    const api = await t.call("PATCH", "/api/auth/me", { token });
    expect(api.status).toBe(404);
    expect(api.body.code).toBe("not_found");
    const page = await t.call("GET", "/definitely/not/here");
    expect(page.status).toBe(404);
    expect(page.headers.get("content-type")).toContain("text/html");
  });
});
