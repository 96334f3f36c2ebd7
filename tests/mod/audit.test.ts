// The audit log page: newest first, filters by action, actor and target, fifty a page.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { warnUser } from "../../src/moderation/actions.ts";
import { makeTestApp } from "../support/app.ts";
import { page, person, type Person } from "../support/moderation.ts";

const t = makeTestApp({ SIGNUP_RATE_LIMIT: "1000" });
afterAll(() => t.close());

let mod: Person;
let admin: Person;
let ann: Person;
let ben: Person;
beforeAll(async () => {
  mod = await person(t, "moderator");
  admin = await person(t, "admin");
  ann = await person(t);
  ben = await person(t);
  // 52 warnings by the moderator to Ann, then one by the admin to Ben.
  for (let i = 1; i <= 52; i++) await warnUser(t.ctx, { id: mod.id, role: "moderator" }, ann.id, `note ${i}`);
  await warnUser(t.ctx, { id: admin.id, role: "admin" }, ben.id, "last one");
});

/** The reasons of the listed rows, in order. */
const reasons = (html: string): string[] => [...html.matchAll(/<td class="mod-pre">([^<]*)<\/td>/g)].map((m) => m[1]!);

describe("the audit log", () => {
  test("lists the newest first, fifty a page, with who, what, whom and why", async () => {
    const first = await page(t, mod, "/mod/audit");
    const rows = reasons(first.text);
    expect(rows).toHaveLength(50);
    expect(rows.slice(0, 3)).toEqual(["last one", "note 52", "note 51"]);
    expect(first.text).toContain(`<a href="/mod/users/${admin.id}">${admin.username}</a>`);
    expect(first.text).toContain("53 entries");
    expect(reasons((await page(t, mod, "/mod/audit?page=2")).text)).toEqual(["note 3", "note 2", "note 1"]);
  });

  test("filters by actor and target, by id or username", async () => {
    expect(reasons((await page(t, mod, `/mod/audit?actor=${admin.username}`)).text)).toEqual(["last one"]);
    expect(reasons((await page(t, mod, `/mod/audit?target=${ben.id}`)).text)).toEqual(["last one"]);
    expect(reasons((await page(t, mod, `/mod/audit?actor=${mod.id}&target=${ben.id}`)).text)).toEqual([]);
    expect(reasons((await page(t, mod, "/mod/audit?actor=nobody-at-all")).text)).toEqual([]);
  });

  test("filters by action, offering the actions the log holds", async () => {
    const r = await page(t, mod, "/mod/audit?action=warn");
    expect(r.text).toContain('<option value="warn" selected="">warn</option>');
    expect(r.text).toContain("53 entries");
    expect(reasons((await page(t, mod, "/mod/audit?action=ban")).text)).toEqual([]);
  });

  test("keeps the filters in the page links", async () => {
    const r = await page(t, mod, `/mod/audit?target=${ann.id}`);
    expect(r.text).toContain(`href="/mod/audit?target=${ann.id}&amp;page=2"`);
  });
});
