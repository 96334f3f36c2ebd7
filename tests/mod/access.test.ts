// Who reaches the console: moderators and admins only; everyone else gets the site's 404 for
// every /mod path. Posts need our Origin and the session's CSRF token; roles are for admins.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { makeTestApp } from "../support/app.ts";
import { auditOf, csrfOf, guest, page, person, post, fileReport, userRow, type Person } from "../support/moderation.ts";

const t = makeTestApp({ SIGNUP_RATE_LIMIT: "1000" });
afterAll(() => t.close());

let mod: Person;
let admin: Person;
let alice: Person;
let bob: Person;
let reportId: number;
beforeAll(async () => {
  mod = await person(t, "moderator");
  admin = await person(t, "admin");
  alice = await person(t);
  bob = await person(t);
  reportId = (await fileReport(t, alice.id, bob.id, { reason: "harassment" })).id;
});

const pages = () => ["/mod", "/mod/", "/mod/reports", `/mod/reports/${reportId}`, `/mod/reports/${reportId}/still`, "/mod/users", `/mod/users/${bob.id}`, "/mod/appeals", "/mod/audit", "/mod/nothing-here"];
const posts = () => [`/mod/users/${bob.id}/warn`, `/mod/users/${bob.id}/ban`, `/mod/users/${bob.id}/role`, "/mod/reports/dismiss", `/mod/reports/${reportId}/delete`, "/mod/appeals/1/decide"];

describe("the console's doors", () => {
  test("every /mod path is the site's HTML 404 for a visitor, a user and a guest", async () => {
    const visitors: (Person | null)[] = [null, alice, await guest(t)];
    for (const who of visitors) {
      for (const path of pages()) {
        const r = await page(t, who, path);
        expect({ path, status: r.status }).toEqual({ path, status: 404 });
        expect(r.text).toContain("Page not found");
        expect(r.text).not.toContain("Moderation");
      }
      for (const path of posts()) {
        const r = await post(t, who, path, { warn_reason: "x", csrf: "x" });
        expect({ path, status: r.status }).toEqual({ path, status: 404 });
      }
    }
    expect((await userRow(t, bob.id))?.banned).toBe(false);
  });

  test("a forged or ended session is a visitor too", async () => {
    expect((await page(t, { ...mod, cookie: "sid=forged.token" }, "/mod")).status).toBe(404);
    const former = await person(t, "moderator");
    await t.call("POST", "/api/auth/logout", { token: former.token });
    expect((await page(t, former, "/mod")).status).toBe(404);
  });

  test("every page renders for a moderator, uncached, with the console's links", async () => {
    for (const path of pages().filter((p) => !p.endsWith("/still") && !p.endsWith("nothing-here"))) {
      const r = await page(t, mod, path);
      expect({ path, status: r.status }).toEqual({ path, status: 200 });
      expect(r.headers.get("cache-control")).toBe("no-store");
      expect(r.text).toContain('href="/mod/reports"');
      expect(r.text).toContain('<meta name="robots" content="noindex"/>');
    }
    expect((await page(t, mod, "/mod/nothing-here")).status).toBe(404);
  });

  test("ignores query values that make no sense rather than failing", async () => {
    for (const path of ["/mod/reports?page=abc&reason=%00&status=nope", "/mod/reports?page=99999999999", "/mod/audit?actor=nobody&target=-1&page=0", "/mod/users?q=%25%5F%5C", "/mod/appeals?page=1e9"]) {
      expect({ path, status: (await page(t, mod, path)).status }).toEqual({ path, status: 200 });
    }
    expect((await page(t, mod, "/mod/users/99999999")).status).toBe(404);
    expect((await page(t, mod, "/mod/reports/0")).status).toBe(404);
  });
});

describe("form posts", () => {
  test("refuse a missing or wrong CSRF token with a readable 403 and change nothing", async () => {
    const target = await person(t);
    for (const csrf of [null, "wrong", await csrfOf(t, admin)]) {
      const fields: Record<string, string> = { warn_reason: "Be kind" };
      if (csrf) fields.csrf = csrf;
      const r = await post(t, mod, `/mod/users/${target.id}/warn`, fields);
      expect(r.status).toBe(403);
      expect(r.text).toContain("Reload the page and try again");
    }
    expect(await auditOf(t, target.id)).toEqual([]);
  });

  test("refuse another site's Origin with a readable 403", async () => {
    const target = await person(t);
    const r = await post(t, mod, `/mod/users/${target.id}/warn`, { warn_reason: "Be kind", csrf: await csrfOf(t, mod) }, { origin: "https://evil.example" });
    expect(r.status).toBe(403);
    expect(r.text).toContain("sent from another site");
    expect(await auditOf(t, target.id)).toEqual([]);
  });

  test("refuse a body that is too large or not a web form", async () => {
    const csrf = await csrfOf(t, mod);
    const big = await post(t, mod, `/mod/users/${bob.id}/warn`, { csrf, warn_reason: "x".repeat(40_000) });
    expect(big.status).toBe(413);
    const json = await t.call("POST", `/mod/users/${bob.id}/warn`, { json: { csrf }, headers: { cookie: mod.cookie, origin: "http://localhost" } });
    expect(json.status).toBe(415);
  });

  test("a moderator gets no role form, and a role post answers 403", async () => {
    const target = await person(t);
    const r = await page(t, mod, `/mod/users/${target.id}`);
    expect(r.text).not.toContain(`/mod/users/${target.id}/role`);
    const posted = await post(t, mod, `/mod/users/${target.id}/role`, { csrf: await csrfOf(t, mod), role: "moderator", back: `/mod/users/${target.id}` });
    expect(posted.status).toBe(403);
    expect(posted.text).toContain("Only administrators can do this");
    expect((await userRow(t, target.id))?.role).toBe("user");
  });

  test("an admin changes a role through the form, which the audit log records", async () => {
    const target = await person(t);
    const form = await page(t, admin, `/mod/users/${target.id}`);
    expect(form.text).toContain(`action="/mod/users/${target.id}/role"`);
    const posted = await post(t, admin, `/mod/users/${target.id}/role`, { csrf: await csrfOf(t, admin), role: "moderator", back: `/mod/users/${target.id}` });
    expect(posted.status).toBe(303);
    expect(posted.headers.get("location")).toBe(`/mod/users/${target.id}`);
    expect((await userRow(t, target.id))?.role).toBe("moderator");
    expect((await auditOf(t, target.id)).map((row) => [row.action, row.actorId])).toEqual([["grant_role", admin.id]]);
    expect((await page(t, target, "/mod")).status).toBe(200);
  });

  test("after an action the page shows one line of what was done, once", async () => {
    const target = await person(t);
    const posted = await post(t, mod, `/mod/users/${target.id}/warn`, { csrf: await csrfOf(t, mod), warn_reason: "Be kind", back: `/mod/users/${target.id}` });
    expect(posted.status).toBe(303);
    const flash = posted.headers.getSetCookie().find((c) => c.startsWith("mod_flash="));
    expect(flash).toContain("HttpOnly");
    const shown = await t.call("GET", `/mod/users/${target.id}`, { headers: { cookie: `${mod.cookie}; ${flash?.split(";")[0]}` } });
    expect(shown.text).toContain(`Warned ${target.username}.`);
    expect(shown.headers.getSetCookie().join()).toContain("mod_flash=; Path=/mod; Max-Age=0");
  });

  test("a refused action shows the page again with the reason and its status", async () => {
    const target = await person(t);
    const r = await post(t, mod, `/mod/users/${target.id}/ban`, { csrf: await csrfOf(t, mod), ban_reason: "Spam", back: `/mod/users/${target.id}` });
    expect(r.status).toBe(400);
    expect(r.text).toContain("Choose how long the ban lasts");
    expect(r.text).toContain(`<h1>${target.username}</h1>`);
    expect((await userRow(t, target.id))?.banned).toBe(false);
  });

  test("a back address outside the console is ignored", async () => {
    const target = await person(t);
    const r = await post(t, mod, `/mod/users/${target.id}/warn`, { csrf: await csrfOf(t, mod), warn_reason: "Be kind", back: "https://evil.example/" });
    expect(r.headers.get("location")).toBe(`/mod/users/${target.id}`);
    const r2 = await post(t, mod, `/mod/users/${target.id}/warn`, { csrf: await csrfOf(t, mod), warn_reason: "Again", back: "//evil.example/mod" });
    expect(r2.headers.get("location")).toBe(`/mod/users/${target.id}`);
  });
});
