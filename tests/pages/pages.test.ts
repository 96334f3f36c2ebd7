import { afterAll, describe, expect, test } from "bun:test";
import { makeTestApp, registerUser } from "../support/app.ts";

const t = makeTestApp({ CONTACT_EMAIL: "hello@chat.test", HELP_EMAIL: "support@chat.test", OPERATOR_NAME: "Chat Test Ltd", OPERATOR_ADDRESS: "1 Test Street, Testville" });
afterAll(() => t.close());

describe("the home page", () => {
  test("shows a visitor the landing page with the three tabs, the purple theme and no React", async () => {
    const r = await t.call("GET", "/");
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toContain("text/html");
    expect(r.text).toStartWith("<!doctype html>");
    expect(r.text).toContain('<meta name="theme-color" content="#7c3aed"/>');
    for (const tab of ["Login", "Register", "Guest"]) expect(r.text).toContain(`>${tab}</label>`);
    for (const action of ["/auth/login", "/auth/register", "/auth/guest"]) expect(r.text).toContain(`action="${action}"`);
    expect(r.text).toContain('type="email"');
    expect(r.text).toContain("Enter Chat");
    expect(r.text).toContain("User Agreement");
    expect(r.text).toContain("confirm you are 18 years old");
    expect(r.text).not.toContain("data-island");
    expect(r.text).not.toContain("/build/client-");
  });

  test("lists every age from 18 to 99 and about 250 countries in the plain form", async () => {
    const r = await t.call("GET", "/");
    const age = r.text.slice(r.text.indexOf('id="reg-age"'), r.text.indexOf("</select>", r.text.indexOf('id="reg-age"')));
    expect([...age.matchAll(/<option value="(\d+)"/g)].map((m) => Number(m[1]))).toEqual(Array.from({ length: 82 }, (_, i) => 18 + i));
    const countries = [...r.text.matchAll(/<option value="([A-Z]{2})">/g)].length;
    expect(countries).toBeGreaterThan(240);
  });

  test("carries the marketing sections and the footer's links and addresses", async () => {
    const r = await t.call("GET", "/");
    for (const text of ["No sign-up required", "Gender and country filters", "Anonymous chat", "190+ countries", "Safety tips", "Frequently asked questions"]) {
      expect(r.text).toContain(text);
    }
    for (const href of ["/", "/privacy", "/terms", "/cookies", "/compliance", "mailto:hello@chat.test", "mailto:support@chat.test"]) {
      expect(r.text).toContain(`href="${href}"`);
    }
  });

  test("shows a signed-in user the chat screen, never stored by caches, with a white theme", async () => {
    const { token, user } = await registerUser(t, { name: "</script><b>Eve" });
    const r = await t.call("GET", "/", { headers: { cookie: `sid=${token}` } });
    expect(r.status).toBe(200);
    expect(r.headers.get("cache-control")).toBe("no-store");
    expect(r.text).toContain('<meta name="theme-color" content="#ffffff"/>');
    expect(r.text).toContain('data-island="ChatApp"');
    expect(r.text).not.toContain('action="/auth/login"');
    const json = /<script type="application\/json" id="island-ChatApp-props">(.*?)<\/script>/.exec(r.text)?.[1] ?? "";
    expect(json).not.toContain("<");
    const props = JSON.parse(json);
    expect(props.token).toBe(token);
    expect(props.user.id).toBe(user.id);
    expect(props.user.name).toBe("</script><b>Eve");
    expect(props.flash).toBeNull();
    expect(props.ice).toHaveProperty("iceTransportPolicy");
  });

  test("drops a session cookie that no longer works and shows the landing page", async () => {
    const r = await t.call("GET", "/", { headers: { cookie: "sid=forged.token" } });
    expect(r.text).toContain('action="/auth/login"');
    expect(r.headers.getSetCookie().join()).toContain("sid=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0");
  });

  test("sends /login and /register to /", async () => {
    for (const path of ["/login", "/register"]) {
      const r = await t.call("GET", path);
      expect([302, 303]).toContain(r.status);
      expect(r.headers.get("location")).toBe("/");
    }
  });

  test("passes the one-time flash message to the chat screen and clears it", async () => {
    const { token } = await registerUser(t);
    const r = await t.call("GET", "/", { headers: { cookie: `sid=${token}; flash=login` } });
    const props = JSON.parse(/id="island-ChatApp-props">(.*?)<\/script>/.exec(r.text)?.[1] ?? "{}");
    expect(props.flash).toBe("Successfully logged in!");
    expect(r.headers.getSetCookie().join()).toContain("flash=; Path=/; Max-Age=0");
  });
});

describe("legal pages", () => {
  const pages: [string, string[]][] = [
    ["/privacy", ["Privacy Policy", "neither receive nor store credit card data", "sid", "selectedUserId", "not stored unless", "Chat Test Ltd", "1 Test Street, Testville", "Minutes"]],
    ["/terms", ["Terms of User Agreement", "18 or older", "organisations", "Nudity and erotic content", "monitor video and image transmission and take screenshots", "including by a video call", "banned without recovery", "press Report", "set by the administration", "value of the Minutes balance", "premium accounts"]],
    ["/cookies", ["Cookies Policy", "Google Analytics", "Google AdSense", "Yandex Metrica", "Accept all", "Reject non-essential", "Customize"]],
    ["/compliance", ["18 U.S.C. 2257", "Age verification notice", "Chat Test Ltd", "hello@chat.test"]],
  ];
  for (const [path, texts] of pages) {
    test(`${path} says what this product does`, async () => {
      const r = await t.call("GET", path);
      expect(r.status).toBe(200);
      expect(r.headers.get("content-type")).toContain("text/html");
      expect(r.text).toContain('content="#ffffff"');
      for (const text of texts) expect(r.text).toContain(text);
    });
  }
});

describe("unknown paths", () => {
  test("a page path gets an HTML 404 page linking home", async () => {
    const r = await t.call("GET", "/no/such/page");
    expect(r.status).toBe(404);
    expect(r.headers.get("content-type")).toContain("text/html");
    expect(r.text).toContain("Page not found");
    expect(r.text).toContain('href="/"');
  });

  test("an API path keeps the JSON 404", async () => {
    const r = await t.call("GET", "/api/no-such-thing");
    expect(r.status).toBe(404);
    expect(r.body.code).toBe("not_found");
  });
});

describe("static files", () => {
  test("robots.txt and the favicon are served", async () => {
    expect((await t.call("GET", "/robots.txt")).text).toContain("User-agent");
    expect((await t.call("GET", "/favicon.svg")).text).toContain("<svg");
  });

  test("a build file that does not exist is a 404, and paths cannot climb out", async () => {
    expect((await t.call("GET", "/build/nothing-12345678.js")).status).toBe(404);
    expect((await t.call("GET", "/build/..%2Fpackage.json")).status).toBe(404);
  });

});
