// The home page's numbers and the report queue: its order, filters and pages.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { makeTestApp } from "../support/app.ts";
import { page, person, fileReport, type Person } from "../support/moderation.ts";

const t = makeTestApp({ SIGNUP_RATE_LIMIT: "1000" });
afterAll(() => t.close());

const MIN = 60_000;
let mod: Person;
let people: Person[];
beforeAll(async () => {
  mod = await person(t, "moderator");
  people = [];
  for (let i = 0; i < 6; i++) people.push(await person(t));
});

/** Report ids in the order the queue's table lists them. */
const listed = (html: string): number[] => [...html.matchAll(/data-report="(\d+)"/g)].map((m) => Number(m[1]));

describe("the report queue", () => {
  let ids: Record<string, number>;
  beforeAll(async () => {
    const [a, b, c, d, x, y] = people as [Person, Person, Person, Person, Person, Person];
    const now = Date.now();
    ids = {
      // x: one reporter, the oldest open report.
      spamOld: (await fileReport(t, a.id, x.id, { reason: "spam", createdAt: now - 300 * MIN })).id,
      // y: three distinct reporters.
      y1: (await fileReport(t, a.id, y.id, { reason: "harassment", createdAt: now - 200 * MIN })).id,
      y2: (await fileReport(t, b.id, y.id, { reason: "harassment", createdAt: now - 100 * MIN })).id,
      y3: (await fileReport(t, c.id, y.id, { reason: "other", createdAt: now - 50 * MIN })).id,
      // d: the newest, but "appears to be under 18".
      underage: (await fileReport(t, a.id, d.id, { reason: "underage", createdAt: now - 1 * MIN })).id,
      // closed long ago.
      dismissed: (await fileReport(t, b.id, x.id, { reason: "spam", status: "dismissed", createdAt: now - 900 * MIN, closedAt: now - 800 * MIN })).id,
    };
  });

  test("lists open reports with under-18 on top, then the most-reported person, then the oldest", async () => {
    const r = await page(t, mod, "/mod/reports");
    expect(listed(r.text)).toEqual([ids.underage, ids.y1, ids.y2, ids.y3, ids.spamOld].map(Number));
    expect(r.text).toContain("Appears to be under 18");
    expect(r.text).toContain("5 reports");
  });

  test("filters by reason and by status", async () => {
    expect(listed((await page(t, mod, "/mod/reports?reason=spam")).text)).toEqual([ids.spamOld!]);
    expect(listed((await page(t, mod, "/mod/reports?status=dismissed")).text)).toEqual([ids.dismissed!]);
    expect(listed((await page(t, mod, "/mod/reports?reason=spam&status=all")).text)).toEqual([ids.spamOld!, ids.dismissed!]);
    const all = listed((await page(t, mod, "/mod/reports?status=all")).text);
    expect(all.at(-1)).toBe(ids.dismissed!);
    expect(all).toHaveLength(6);
  });

  test("pages fifty reports at a time with page links that keep the filters", async () => {
    // Its own app: 55 more open reports would change what the other tests of the queue list.
    const fresh = makeTestApp({ SIGNUP_RATE_LIMIT: "1000" });
    try {
      const m = await person(fresh, "moderator");
      const a = await person(fresh);
      const z = await person(fresh);
      const now = Date.now();
      const many: number[] = [];
      for (let i = 0; i < 55; i++) many.push((await fileReport(fresh, a.id, z.id, { reason: "violence", createdAt: now - (1000 + i) * MIN })).id);
      const first = await page(fresh, m, "/mod/reports?reason=violence");
      expect(listed(first.text)).toHaveLength(50);
      expect(first.text).toContain('href="/mod/reports?reason=violence&amp;status=open&amp;page=2"');
      const second = await page(fresh, m, "/mod/reports?reason=violence&page=2");
      const onSecond = listed(second.text);
      expect(onSecond).toHaveLength(5);
      expect(new Set([...listed(first.text), ...onSecond])).toEqual(new Set(many));
      // Oldest first among equals: the last page holds the newest.
      expect(onSecond).toEqual(many.slice(0, 5).reverse());
      expect(listed((await page(fresh, m, "/mod/reports?reason=violence&page=3")).text)).toEqual([]);
    } finally {
      await fresh.close();
    }
  });
});

describe("the console's home page", () => {
  test("counts open reports, the oldest one's age, the last day's reports, bans, appeals and the median time to action", async () => {
    const fresh = makeTestApp({ SIGNUP_RATE_LIMIT: "1000" });
    try {
      const m = await person(fresh, "moderator");
      const a = await person(fresh);
      const b = await person(fresh);
      const now = Date.now();
      await fileReport(fresh, a.id, b.id, { createdAt: now - 3 * 60 * MIN });
      await fileReport(fresh, a.id, b.id, { createdAt: now - 30 * MIN });
      await fileReport(fresh, a.id, b.id, { createdAt: now - 2 * 24 * 60 * MIN, status: "dismissed" });
      for (const minutes of [10, 20, 60]) {
        await fileReport(fresh, a.id, b.id, { createdAt: now - 120 * MIN, firstActionAt: now - 120 * MIN + minutes * MIN, status: "actioned" });
      }
      // First acted on more than 7 days ago: outside the median.
      await fileReport(fresh, a.id, b.id, { createdAt: now - 10 * 24 * 60 * MIN, firstActionAt: now - 9 * 24 * 60 * MIN, status: "actioned" });
      const html = (await page(fresh, m, "/mod")).text;
      const stat = (label: string) => new RegExp(`mod-stat-value">([^<]*)</span><span class="mod-stat-label">${label}`).exec(html)?.[1];
      expect(stat("Open reports")).toBe("2");
      expect(stat("Oldest open report")).toBe("3 h");
      expect(stat("Reports in the last 24 hours")).toBe("5");
      expect(stat("Active bans")).toBe("0");
      expect(stat("Open appeals")).toBe("0");
      expect(stat("Median time to first action")).toBe("20 min");
    } finally {
      await fresh.close();
    }
  });
});
