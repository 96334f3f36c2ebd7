import { afterAll, describe, expect, test } from "bun:test";
import { makeTestApp } from "../support/app.ts";
import { form, setCookie } from "./helpers.ts";

const t = makeTestApp();
afterAll(() => t.close());

describe("the cookie banner", () => {
  test("shows on every page until a choice is made, with its three choices", async () => {
    for (const path of ["/", "/privacy", "/terms", "/cookies", "/compliance", "/missing-page"]) {
      const r = await t.call("GET", path);
      expect(r.text).toContain('data-consent-banner=""');
      for (const label of ["Accept all", "Reject non-essential", "Customize"]) expect(r.text).toContain(label);
    }
    const chosen = await t.call("GET", "/privacy", { headers: { cookie: "consent=necessary" } });
    expect(chosen.text).not.toContain('data-consent-banner=""');
  });

  test("records Accept all, Reject non-essential and custom choices for a year and returns to the page", async () => {
    const cases: [Record<string, string>, string][] = [
      [{ choice: "accept" }, "necessary.analytics.advertising"],
      [{ choice: "reject" }, "necessary"],
      [{ choice: "custom", analytics: "1" }, "necessary.analytics"],
      [{ choice: "custom", advertising: "1" }, "necessary.advertising"],
    ];
    for (const [fields, value] of cases) {
      const r = await form(t, "/consent", { ...fields, return: "/terms" });
      expect(r.status).toBe(303);
      expect(r.headers.get("location")).toBe("/terms");
      expect(setCookie(r.headers, "consent")).toBe(`consent=${value}; Path=/; Max-Age=31536000; SameSite=Lax`);
    }
  });

  test("never sends the visitor to another site", async () => {
    for (const target of ["//evil.example/", "https://evil.example/", "/\\evil.example"]) {
      const r = await form(t, "/consent", { choice: "reject", return: target });
      expect(r.headers.get("location")).toBe("/");
    }
  });

  test("refuses a choice posted from another site, and a post without a choice", async () => {
    expect((await form(t, "/consent", { choice: "accept" }, { origin: "https://evil.example" })).status).toBe(403);
    expect((await form(t, "/consent", { choice: "maybe" })).status).toBe(400);
  });

  test("the Cookies Policy shows the current choice and a form to change it", async () => {
    const r = await t.call("GET", "/cookies", { headers: { cookie: "consent=necessary.analytics" } });
    expect(r.text).toContain("Now allowed: necessary cookies, analytics.");
    expect(r.text).toMatch(/name="analytics"[^>]*checked=""/);
    expect(r.text).toContain("none of them is switched on");
  });
});

describe("optional scripts", () => {
  test("none is named on a page by default", async () => {
    expect((await t.call("GET", "/", { headers: { cookie: "consent=necessary.analytics.advertising" } })).text).not.toContain("optional-scripts");
  });

  test("configured ones are listed for the consent script, which loads only accepted categories", async () => {
    const configured = makeTestApp({
      OPTIONAL_SCRIPTS: JSON.stringify([{ src: "https://stats.example/a.js", category: "analytics", name: "Example Stats" }]),
    });
    try {
      const r = await configured.call("GET", "/privacy", { headers: { cookie: "consent=necessary" } });
      expect(r.text).toContain('<script type="application/json" id="optional-scripts">[{"src":"https://stats.example/a.js","category":"analytics"}]</script>');
      // Never as a script tag of its own: only islands/enhance/consent.ts loads it, after consent.
      expect(r.text).not.toContain('src="https://stats.example/a.js"');
      expect((await configured.call("GET", "/cookies")).text).toContain("Example Stats (analytics)");
    } finally {
      await configured.close();
    }
  });
});
