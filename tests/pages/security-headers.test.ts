// Issue 9, finding 10: every HTML page carries a strict Content-Security-Policy and a
// Permissions-Policy, and no page's HTML holds a script the browser would run inline.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { appealUrl, banUser } from "../../src/moderation/actions.ts";
import { withPagePolicies } from "../../src/pages/layout/security.ts";
import { makeTestApp, type TestApp, type TestResponse } from "../support/app.ts";
import { person, type Person } from "../support/moderation.ts";
import { form, registration } from "./helpers.ts";

const OPTIONAL = [{ src: "https://stats.example.net/tag.js?site=1", category: "analytics", name: "Stats" }];

let t: TestApp;
let user: Person;
let mod: Person;
let appeal: string;
beforeAll(async () => {
  t = makeTestApp({ SIGNUP_RATE_LIMIT: "1000", OPTIONAL_SCRIPTS: JSON.stringify(OPTIONAL) });
  user = await person(t);
  mod = await person(t, "moderator");
  const banned = await person(t);
  const ban = await banUser(t.ctx, { id: null, role: "cli" }, banned.id, { days: 7, reason: "spam", banAddress: false });
  appeal = appealUrl(t.ctx.config.secret, ban.id);
});
afterAll(() => t.close());

/** Every kind of HTML page the site answers, as a visitor, a user or a moderator sees it. */
async function everyPage(): Promise<[string, TestResponse][]> {
  const get = (path: string, who: Person | null = null) => t.call("GET", path, { headers: who ? { cookie: who.cookie } : {} });
  return [
    ["the landing page", await get("/")],
    ["the chat shell", await get("/", user)],
    ["the privacy page", await get("/privacy")],
    ["the terms", await get("/terms")],
    ["the cookie page", await get("/cookies")],
    ["the compliance page", await get("/compliance")],
    ["the 404 page", await get("/no/such/page")],
    ["a login form with errors", await form(t, "/auth/login", { username: "nobody_here", password: "wrong password" }, { origin: "http://localhost" })],
    ["a registration form with errors", await form(t, "/auth/register", registration({ age: "12" }), { origin: "http://localhost" })],
    ["the console's home", await get("/mod", mod)],
    ["a user's record in the console", await get(`/mod/users/${user.id}`, mod)],
    ["the console to a user (404)", await get("/mod", user)],
    ["the appeal page", await get(appeal)],
  ];
}

/** The policy as a map of directive to its sources. */
function directives(policy: string | null): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const part of (policy ?? "").split(";")) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name) map.set(name, sources);
  }
  return map;
}

describe("page security headers", () => {
  test("every page answers with HTML and a Content-Security-Policy that allows no inline or foreign script", async () => {
    for (const [name, r] of await everyPage()) {
      expect({ name, type: r.headers.get("content-type") }).toEqual({ name, type: "text/html; charset=utf-8" });
      const csp = directives(r.headers.get("content-security-policy"));
      expect({ name, script: csp.get("script-src") }).toEqual({ name, script: ["'self'", "https://stats.example.net"] });
      expect({ name, object: csp.get("object-src"), base: csp.get("base-uri"), frames: csp.get("frame-ancestors"), forms: csp.get("form-action") }).toEqual({
        name,
        object: ["'none'"],
        base: ["'none'"],
        frames: ["'none'"],
        forms: ["'self'"],
      });
      expect(csp.get("default-src")).toEqual(["'self'"]);
    }
  });

  test("lets pages reach only their own site, their own socket, pictures and call streams", async () => {
    const r = await t.call("GET", "/", { headers: { cookie: user.cookie } });
    const csp = directives(r.headers.get("content-security-policy"));
    expect(csp.get("connect-src")).toEqual(["'self'", "ws://localhost", "wss://localhost", "https://stats.example.net"]);
    expect(csp.get("img-src")).toEqual(["'self'", "data:", "blob:", "https://cdn.jsdelivr.net", "https://stats.example.net"]);
    expect(csp.get("media-src")).toEqual(["'self'", "blob:", "mediastream:"]);
    // React's style attributes and the toast library's <style> element: style only, never script.
    expect(csp.get("style-src")).toEqual(["'self'", "'unsafe-inline'"]);
  });

  test("names the socket's host as the browser asked for it, and drops a Host that is not a host name", async () => {
    const named = await t.call("GET", "/privacy", { headers: { host: "chat.example.org:8443" } });
    expect(directives(named.headers.get("content-security-policy")).get("connect-src")).toContain("wss://chat.example.org:8443");
    const hostile = await t.call("GET", "/privacy", { headers: { host: "evil.test;script-src *" } });
    const csp = directives(hostile.headers.get("content-security-policy"));
    expect(csp.get("script-src")).toEqual(["'self'", "https://stats.example.net"]);
    expect(csp.get("connect-src")).toEqual(["'self'", "https://stats.example.net"]);
  });

  test("every page allows the camera and microphone for the site only and turns location off", async () => {
    for (const [name, r] of await everyPage()) {
      const policy = (r.headers.get("permissions-policy") ?? "").split(/,\s*/);
      expect({ name, policy }).toEqual({ name, policy: expect.arrayContaining(["camera=(self)", "microphone=(self)", "geolocation=()", "payment=()", "usb=()"]) });
    }
  });

  test("no page's HTML holds an inline script, an event-handler attribute or a javascript: link", async () => {
    for (const [name, r] of await everyPage()) {
      const scripts = [...r.text.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)];
      for (const [, attributes = "", body = ""] of scripts) {
        const isData = /\btype="application\/json"/.test(attributes);
        const isFile = /\bsrc="\/build\/[^"]+"/.test(attributes);
        expect({ name, attributes, runs: !isData && !isFile, inlineCode: isFile && body.trim() !== "" }).toEqual({ name, attributes, runs: false, inlineCode: false });
      }
      expect({ name, handlers: r.text.match(/<[^>]+\son[a-z]+\s*=/gi) }).toEqual({ name, handlers: null });
      expect({ name, links: r.text.match(/(href|src|action)="\s*javascript:/gi) }).toEqual({ name, links: null });
    }
  });
});

describe("answers that are not pages", () => {
  test("carry no page policy: a JSON answer is never rendered as a page", async () => {
    const api = await t.call("GET", `/api/users/${mod.id}`, { headers: { authorization: `Bearer ${user.token}` } });
    expect(api.status).toBe(200);
    expect(api.headers.get("content-security-policy")).toBeNull();
  });

  test("an HTML answer that set its own policy keeps it", () => {
    const sandboxed = new Response("<p>uploaded</p>", { headers: { "content-type": "text/html", "content-security-policy": "default-src 'none'; sandbox" } });
    withPagePolicies(sandboxed, t.ctx.config, new Request("http://localhost/uploads/x.html"));
    expect(sandboxed.headers.get("content-security-policy")).toBe("default-src 'none'; sandbox");
  });
});
