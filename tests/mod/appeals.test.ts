// The appeal page a banned person reaches from the ban notice, and the console's appeals list:
// one appeal per ban, a decision with a message the person reads.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { appeals, bans } from "../../src/storage/tables.ts";
import { appealUrl } from "../../src/moderation/actions.ts";
import { APPEAL_POSTS_PER_HOUR } from "../../src/pages/appeal/routes.tsx";
import { loginAs, makeTestApp, type TestApp } from "../support/app.ts";
import { auditOf, csrfOf, ORIGIN, page, person, post, userRow, type Person } from "../support/moderation.ts";

let t: TestApp;
let mod: Person;
beforeAll(async () => {
  t = makeTestApp({ SIGNUP_RATE_LIMIT: "1000" });
  mod = await person(t, "moderator");
});
afterAll(() => t.close());

/** Bans someone through the console; returns them and their appeal link. */
async function banned(days: string, reason: string): Promise<{ who: Person; url: string; banId: number }> {
  const who = await person(t);
  const r = await post(t, mod, `/mod/users/${who.id}/ban`, [["csrf", await csrfOf(t, mod)], ["ban_days", days], ["ban_reason", reason]]);
  if (r.status !== 303) throw new Error(`ban failed: ${r.status}`);
  const ban = (await t.ctx.db.select().from(bans).where(eq(bans.userId, who.id)).limit(1))[0]!;
  return { who, url: appealUrl(t.ctx.config.secret, ban.id), banId: ban.id };
}

const appealOf = async (banId: number): Promise<number> => (await t.ctx.db.select().from(appeals).where(eq(appeals.banId, banId)).limit(1))[0]?.id ?? 0;

const appealForm = (url: string, text: string, headers: Record<string, string> = {}) => post(t, null, url, { text }, headers);

describe("the appeal page", () => {
  test("shows the ban's reason and end, then takes one appeal and shows its status", async () => {
    const { url, banId } = await banned("7", "Insults in chat <script>");
    const before = await page(t, null, url);
    expect(before.status).toBe(200);
    expect(before.headers.get("cache-control")).toBe("no-store");
    expect(before.text).toContain("Insults in chat &lt;script&gt;");
    expect(before.text).toMatch(/<dt>Ends<\/dt><dd>\d{4}-\d\d-\d\d \d\d:\d\d UTC<\/dd>/);
    expect(before.text).toContain(`action="${url}"`);
    const sent = await appealForm(url, "I was quoting someone else.");
    expect(sent.status).toBe(303);
    expect(sent.headers.get("location")).toBe(url);
    expect((await t.ctx.db.select().from(appeals).where(eq(appeals.banId, banId)).limit(1))[0]?.text).toBe("I was quoting someone else.");
    const after = await page(t, null, url);
    expect(after.text).toContain("I was quoting someone else.");
    expect(after.text).toContain("We received your appeal");
    expect(after.text).not.toContain('name="text"');
  });

  test("a second appeal for the same ban answers 409 and says so", async () => {
    const { url, banId } = await banned("1", "Spam");
    expect((await appealForm(url, "First")).status).toBe(303);
    const again = await appealForm(url, "Second");
    expect(again.status).toBe(409);
    expect(again.text).toContain("You have already appealed this ban");
    expect((await t.ctx.db.select().from(appeals).where(eq(appeals.banId, banId))).map((a) => a.text)).toEqual(["First"]);
  });

  test("refuses an empty or too long appeal on the page, keeping what was typed", async () => {
    const { url } = await banned("permanent", "Fraud");
    const empty = await appealForm(url, "   ");
    expect(empty.status).toBe(400);
    expect(empty.text).toContain("Write your appeal in 1 to 1000 characters");
    const long = await appealForm(url, "y".repeat(1001));
    expect(long.status).toBe(400);
    expect(long.text).toContain("y".repeat(1000));
    expect((await page(t, null, url)).text).toContain("Never: the ban is permanent.");
  });

  test("a ban replaced by a longer one points to the ban in force", async () => {
    const { who, url } = await banned("1", "Spam");
    await post(t, mod, `/mod/users/${who.id}/ban`, [["csrf", await csrfOf(t, mod)], ["ban_days", "permanent"], ["ban_reason", "Spam again"]]);
    const newer = (await t.ctx.db.select().from(bans).where(eq(bans.userId, who.id))).find((b) => b.liftedAt === null)!;
    const old = await page(t, null, url);
    expect(old.text).toContain("This ban was replaced by a newer one");
    expect(old.text).toContain(`href="${appealUrl(t.ctx.config.secret, newer.id)}"`);
    expect(old.text).not.toContain("You can sign in again");
    expect((await appealForm(url, "Please")).status).toBe(409);
  });

  test("refuses another site's form with 403", async () => {
    const { url, banId } = await banned("1", "Spam");
    const r = await appealForm(url, "Please", { origin: "https://evil.example" });
    expect(r.status).toBe(403);
    expect(await t.ctx.db.select().from(appeals).where(eq(appeals.banId, banId))).toEqual([]);
  });

  test("an invalid or forged link is the site's 404", async () => {
    const { banId } = await banned("1", "Spam");
    for (const path of [`/appeal/${banId}.forged`, "/appeal/nonsense", `/appeal/${banId}`, "/appeal/%00"]) {
      expect({ path, status: (await page(t, null, path)).status }).toEqual({ path, status: 404 });
      expect({ path, status: (await appealForm(path, "x")).status }).toEqual({ path, status: 404 });
    }
  });
});

describe("deciding appeals in the console", () => {
  test("lists open appeals with the ban, and lifting one unbans the person, who reads the answer", async () => {
    const { who, url, banId } = await banned("30", "Nudity on camera");
    await appealForm(url, "It was a poster behind me.");
    const appealId = await appealOf(banId);
    const list = await page(t, mod, "/mod/appeals");
    expect(list.text).toContain("It was a poster behind me.");
    expect(list.text).toContain("Nudity on camera");
    expect(list.text).toContain(`action="/mod/appeals/${appealId}/decide"`);
    const r = await post(t, mod, `/mod/appeals/${appealId}/decide`, [["csrf", await csrfOf(t, mod)], ["decision", "lift"], ["response", "You are right, sorry."], ["back", "/mod/appeals"]]);
    expect(r.status).toBe(303);
    expect((await userRow(t, who.id))?.banned).toBe(false);
    expect((await auditOf(t, who.id)).map((a) => a.action)).toEqual(["ban", "lift_appeal"]);
    const seen = await page(t, null, url);
    expect(seen.text).toContain("Your appeal was accepted");
    expect(seen.text).toContain("You are right, sorry.");
    const login = await loginAs(t, who.username);
    expect(login.status).toBe(200);
  });

  test("upholding keeps the ban, and the answer is on the appeal page", async () => {
    const { who, url, banId } = await banned("7", "Threats");
    await appealForm(url, "I was joking.");
    const appealId = await appealOf(banId);
    const noChoice = await post(t, mod, `/mod/appeals/${appealId}/decide`, [["csrf", await csrfOf(t, mod)], ["response", "No"]]);
    expect(noChoice.status).toBe(400);
    const r = await post(t, mod, `/mod/appeals/${appealId}/decide`, [["csrf", await csrfOf(t, mod)], ["decision", "uphold"], ["response", "Threats are never a joke here."]]);
    expect(r.status).toBe(303);
    expect((await userRow(t, who.id))?.banned).toBe(true);
    const seen = await page(t, null, url);
    expect(seen.text).toContain("the ban stays");
    expect(seen.text).toContain("Threats are never a joke here.");
    const again = await post(t, mod, `/mod/appeals/${appealId}/decide`, [["csrf", await csrfOf(t, mod)], ["decision", "lift"], ["response", "Changed my mind"]]);
    expect(again.status).toBe(409);
    expect((await userRow(t, who.id))?.banned).toBe(true);
  });
});

describe("the appeal form's limit", () => {
  test("an address gets a few posts an hour, then 429 with Retry-After", async () => {
    const fresh = makeTestApp({ SIGNUP_RATE_LIMIT: "1000" });
    try {
      const m = await person(fresh, "moderator");
      const target = await person(fresh);
      const csrf = await csrfOf(fresh, m);
      await post(fresh, m, `/mod/users/${target.id}/ban`, [["csrf", csrf], ["ban_days", "1"], ["ban_reason", "Spam"]]);
      const link = appealUrl(fresh.ctx.config.secret, (await fresh.ctx.db.select().from(bans).where(eq(bans.userId, target.id)).limit(1))[0]!.id);
      const statuses: number[] = [];
      for (let i = 0; i <= APPEAL_POSTS_PER_HOUR; i++) {
        const r = await fresh.call("POST", link, { body: new URLSearchParams({ text: "" }), headers: { "content-type": "application/x-www-form-urlencoded", origin: ORIGIN } });
        statuses.push(r.status);
        if (r.status === 429) expect(Number(r.headers.get("retry-after"))).toBeGreaterThan(0);
      }
      expect(statuses).toEqual([...Array(APPEAL_POSTS_PER_HOUR).fill(400), 429]);
    } finally {
      await fresh.close();
    }
  });
});
