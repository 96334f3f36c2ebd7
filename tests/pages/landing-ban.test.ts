// The landing page after a refused form post because of a ban (issue 8), JavaScript off: the
// login panel shows the reason, the end and the appeal link; a guest entry from the banned
// person's browser shows the end and the appeal link, never the account's reason.
import { afterAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { users } from "../../src/storage/tables.ts";
import { banUser, type Actor } from "../../src/moderation/actions.ts";
import { makeTestApp } from "../support/app.ts";
import { cookiesOf, form, guestEntry, registration } from "./helpers.ts";

const t = makeTestApp();
afterAll(() => t.close());
const cli: Actor = { id: null, role: "cli" };

/** The ban notice's markup in a page, or "" when there is none. */
const noticeOf = (html: string) => /<div class="ban-notice"[\s\S]*?<\/div>/.exec(html)?.[0] ?? "";
const decode = (html: string) => html.replace(/&#x27;|&#39;/g, "'").replace(/&quot;/g, '"').replace(/&amp;/g, "&");

/** Registers through the form (so the browser gets its device cookie) and bans the account. */
async function bannedAccount(days: 1 | null, reason: string) {
  const fields = registration();
  const signedUp = await form(t, "/auth/register", fields);
  expect(signedUp.status).toBe(303);
  const id = (await t.ctx.db.select({ id: users.id }).from(users).where(eq(users.username, fields.username)))[0]?.id;
  if (!id) throw new Error(`no user ${fields.username}`);
  await banUser(t.ctx, cli, id, { days, reason, banAddress: false });
  return { fields, cookie: cookiesOf(signedUp.headers) };
}

describe("a banned account signing in without JavaScript", () => {
  test("sees the reason, the end in UTC and 'Appeal this ban' in the login panel", async () => {
    const { fields } = await bannedAccount(1, "Nudity on camera in Video Roulette");
    const r = await form(t, "/auth/login", { username: fields.username, password: fields.password });
    expect(r.status).toBe(403);
    expect(r.text).toMatch(/id="tab-login"[^>]*checked=""/);
    const notice = decode(noticeOf(r.text));
    expect(notice).toContain('role="alert"');
    expect(notice).toContain("This account is banned");
    expect(notice).toContain("Reason: Nudity on camera in Video Roulette");
    expect(notice).toMatch(/Banned until \d{1,2} [A-Z][a-z]+ \d{4} at \d{2}:\d{2} UTC/);
    expect(notice).toMatch(/<a class="ban-notice-appeal" href="\/appeal\/[^"]+">Appeal this ban<\/a>/);
    // The login form sits below it, ready for another try, with the username kept.
    expect(r.text).toContain(`value="${fields.username}"`);
  });

  test("a permanent ban says 'Banned permanently'", async () => {
    const { fields } = await bannedAccount(null, "Spam");
    const r = await form(t, "/auth/login", { username: fields.username, password: fields.password });
    expect(decode(noticeOf(r.text))).toContain("Banned permanently");
  });
});

describe("a guest entry from the banned person's browser without JavaScript", () => {
  test("shows the end and the appeal link in the guest panel, and not the account's reason", async () => {
    const { cookie } = await bannedAccount(null, "Threats against another user");
    const r = await form(t, "/auth/guest", guestEntry("male"), { cookie });
    expect(r.status).toBe(403);
    expect(r.text).toMatch(/id="tab-guest"[^>]*checked=""/);
    const notice = decode(noticeOf(r.text));
    expect(notice).toContain("New accounts from this device or network are banned");
    expect(notice).toContain("Banned permanently");
    expect(notice).toContain("Appeal this ban");
    expect(notice).not.toContain("Threats against another user");
  });

  test("a landing page without a ban has no notice", async () => {
    const r = await t.call("GET", "/");
    expect(noticeOf(r.text)).toBe("");
  });
});
