// Users in the console: the search, a user's record, and the account actions (unban, lift a
// roulette suspension, end sessions).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { sessions } from "../../src/storage/tables.ts";
import { makeTestApp } from "../support/app.ts";
import { auditOf, csrfOf, page, person, post, fileReport, userRow, type Person } from "../support/moderation.ts";

const t = makeTestApp({ SIGNUP_RATE_LIMIT: "1000" });
afterAll(() => t.close());

let mod: Person;
let csrf: string;
let eve: Person;
let reporter: Person;
beforeAll(async () => {
  mod = await person(t, "moderator");
  csrf = await csrfOf(t, mod);
  eve = await person(t);
  reporter = await person(t);
});

const found = (html: string): string[] => [...html.matchAll(/<td><a href="\/mod\/users\/\d+">([^<]+)<\/a>/g)].map((m) => m[1]!);

describe("the user search", () => {
  test("finds people by username, e-mail or id", async () => {
    expect(found((await page(t, mod, `/mod/users?q=${eve.username}`)).text)).toEqual([eve.username]);
    expect(found((await page(t, mod, `/mod/users?q=${eve.username.toUpperCase()}%40EXAMPLE.com`)).text)).toEqual([eve.username]);
    expect(found((await page(t, mod, `/mod/users?q=${eve.id}`)).text)[0]).toBe(eve.username);
    expect((await page(t, mod, "/mod/users?q=nobody-by-this-name")).text).toContain("Nobody matches");
  });

  test("treats % and _ as plain characters", async () => {
    expect(found((await page(t, mod, "/mod/users?q=%25")).text)).toEqual([]);
    expect(found((await page(t, mod, "/mod/users?q=_")).text)).toEqual([]);
  });
});

describe("a user's page", () => {
  test("shows the profile, open sessions, reports both ways, bans and warnings", async () => {
    const made = (await fileReport(t, eve.id, reporter.id, { reason: "spam" })).id;
    const received = (await fileReport(t, reporter.id, eve.id, { reason: "violence" })).id;
    await post(t, mod, `/mod/users/${eve.id}/warn`, [["csrf", csrf], ["warn_reason", "Mind your words"], ["report", String(received)]]);
    const r = await page(t, mod, `/mod/users/${eve.id}`);
    expect(r.text).toContain(`<h1>${eve.username}</h1>`);
    expect(r.text).toContain(`${eve.username}@example.com`);
    expect(r.text).toMatch(/<dt>Sessions<\/dt><dd>1<!-- --> open/);
    expect(r.text).toContain(`href="/mod/reports/${made}"`);
    expect(r.text).toContain(`href="/mod/reports/${received}"`);
    expect(r.text).toContain("Mind your words");
    expect(r.text).toContain("not acknowledged yet");
    expect(r.text).toContain(`action="/mod/users/${eve.id}/end-sessions"`);
  });

  test("unban lifts a running ban, and the form is offered only while one runs", async () => {
    const target = await person(t);
    expect((await page(t, mod, `/mod/users/${target.id}`)).text).not.toContain(`/mod/users/${target.id}/unban`);
    await post(t, mod, `/mod/users/${target.id}/ban`, [["csrf", csrf], ["ban_days", "30"], ["ban_reason", "Spam"]]);
    expect((await userRow(t, target.id))?.banned).toBe(true);
    const shown = await page(t, mod, `/mod/users/${target.id}`);
    expect(shown.text).toContain(`action="/mod/users/${target.id}/unban"`);
    expect(shown.text).toContain("Banned until");
    const r = await post(t, mod, `/mod/users/${target.id}/unban`, [["csrf", csrf], ["reason", "Mistaken identity"], ["back", `/mod/users/${target.id}`]]);
    expect(r.status).toBe(303);
    expect((await userRow(t, target.id))?.banned).toBe(false);
    expect((await auditOf(t, target.id)).map((a) => [a.action, a.reason])).toEqual([
      ["ban", "Spam"],
      ["unban", "Mistaken identity"],
    ]);
    expect((await page(t, mod, `/mod/users/${target.id}`)).text).toContain("lifted");
  });

  test("lift roulette suspension clears it, and end sessions signs the person out everywhere", async () => {
    const target = await person(t);
    await post(t, mod, `/mod/users/${target.id}/suspend`, [["csrf", csrf], ["suspend_hours", "5"], ["suspend_reason", "Camera pointed at nothing"]]);
    expect((await page(t, mod, `/mod/users/${target.id}`)).text).toContain(`action="/mod/users/${target.id}/lift-suspension"`);
    const lifted = await post(t, mod, `/mod/users/${target.id}/lift-suspension`, [["csrf", csrf], ["reason", "Explained"]]);
    expect(lifted.status).toBe(303);
    expect((await userRow(t, target.id))?.rouletteSuspendedAt).toBeNull();

    expect(await t.ctx.db.select().from(sessions).where(eq(sessions.userId, target.id))).toHaveLength(1);
    const ended = await post(t, mod, `/mod/users/${target.id}/end-sessions`, [["csrf", csrf], ["reason", "Account shared"]]);
    expect(ended.status).toBe(303);
    expect(await t.ctx.db.select().from(sessions).where(eq(sessions.userId, target.id))).toEqual([]);
    expect((await t.call("GET", "/api/auth/me", { token: target.token })).status).toBe(401);
    expect((await auditOf(t, target.id)).map((a) => a.action)).toEqual(["suspend_roulette", "lift_suspension", "end_sessions"]);
  });
});
