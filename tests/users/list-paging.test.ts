// GET /api/users page by page (Find Users searches on the server): cursors walk a stable set
// without repeats or skips, filters and counts describe the whole set, bad parameters are 400s.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { LIST_READS } from "../../src/users/index.ts";
import { makeTestApp, registerUser, type TestApp } from "../support/app.ts";

let t: TestApp;
/** The caller of the current describe block: each block gets its own, so one block's reads leave another's budget alone. */
let me: Awaited<ReturnType<typeof registerUser>>;
const freshCaller = () =>
  beforeAll(async () => {
    me = await registerUser(t, { name: "Paging Viewer" });
  });
const base = Date.now() - 1_000_000;

interface Person {
  name: string;
  username?: string;
  gender?: string;
  age?: number | null;
  country?: [string, string];
  online?: boolean;
  lastSeen?: number;
}

/** People written straight to the table: registering dozens through the API would hash dozens of passwords. */
async function seed(people: Person[]): Promise<number[]> {
  const ids: number[] = [];
  for (const [i, p] of people.entries()) {
    const username = p.username ?? `seed_${Math.random().toString(36).slice(2, 10)}`;
    const [code, country] = p.country ?? ["DE", "Germany"];
    const [row] = await t.sql<{ id: number }>(
      `INSERT INTO users (username, username_key, name, gender, age, country_code, country_name, is_online, last_seen, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
      username, username.toLowerCase(), p.name, p.gender ?? "female", p.age === undefined ? 30 : p.age, code, country, p.online === true, p.lastSeen ?? base + i, base,
    );
    ids.push(row!.id);
  }
  return ids;
}

const list = (query: string, token = me.token) => t.call("GET", `/api/users?${query}`, { token });

/** Every page of a query, following nextCursor; the ids in the order they came. */
async function walk(query: string, limit: number): Promise<{ ids: number[]; pages: number }> {
  const ids: number[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const r = await list(`${query}&limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
    expect(r.status).toBe(200);
    ids.push(...r.body.users.map((u: { id: number }) => u.id));
    cursor = r.body.nextCursor;
    pages += 1;
  } while (cursor && pages < 50);
  return { ids, pages };
}

beforeAll(() => {
  t = makeTestApp();
});
afterAll(() => t.close());

describe("paging the people list", () => {
  freshCaller();
  test("walks a stable set page by page in the list's order, never repeating or skipping anyone", async () => {
    // Ties on last_seen too: the cursor's id keeps their order strict.
    const ids = await seed(Array.from({ length: 23 }, (_, i) => ({ name: `Walker ${i}`, online: i % 4 === 0, lastSeen: base + Math.floor(i / 3) })));
    const whole = await list("q=walker&limit=500");
    expect(whole.body.nextCursor).toBeNull();
    expect(whole.body.total).toBe(23);
    expect(whole.body.online).toBe(6);
    const { ids: walked, pages } = await walk("q=walker", 5);
    expect(pages).toBe(5);
    expect(walked).toEqual(whole.body.users.map((u: { id: number }) => u.id));
    expect(new Set(walked)).toEqual(new Set(ids));
  });

  test("counts the whole filtered set on the first page and leaves the counts out of later pages", async () => {
    await seed(Array.from({ length: 7 }, (_, i) => ({ name: `Counted ${i}`, online: i < 3 })));
    const first = await list("q=counted&limit=2");
    expect(first.body).toMatchObject({ total: 7, online: 3 });
    expect(first.body.users).toHaveLength(2);
    const second = await list(`q=counted&limit=2&cursor=${encodeURIComponent(first.body.nextCursor)}`);
    expect(second.body.users).toHaveLength(2);
    expect(second.body.total).toBeUndefined();
    expect(second.body.online).toBeUndefined();
  });

  test("someone coming online between pages neither shifts nor repeats the others", async () => {
    const ids = await seed(Array.from({ length: 9 }, (_, i) => ({ name: `Mover ${i}`, lastSeen: base + 100 - i })));
    const first = await list("q=mover&limit=3");
    expect(first.body.users.map((u: { id: number }) => u.id)).toEqual(ids.slice(0, 3));
    // The first person of the next page comes online: they move to the top, already passed.
    await t.sql("UPDATE users SET is_online = ?, last_seen = ? WHERE id = ?", true, Date.now(), ids[3]!);
    const next = await list(`q=mover&limit=10&cursor=${encodeURIComponent(first.body.nextCursor)}`);
    expect(next.body.users.map((u: { id: number }) => u.id)).toEqual(ids.slice(4));
  });

  test("pages a filtered set (gender, age, online) to the end", async () => {
    const wanted = await seed(Array.from({ length: 8 }, (_, i) => ({ name: `Filtered ${i}`, gender: "male", age: 40 + i, online: true })));
    await seed([{ name: "Filtered off", gender: "male", age: 41 }, { name: "Filtered young", gender: "male", age: 20, online: true }, { name: "Filtered woman", age: 41, online: true }]);
    const { ids } = await walk("q=filtered&gender=male&minAge=40&maxAge=60&online=1", 3);
    expect(new Set(ids)).toEqual(new Set(wanted));
    expect(ids).toHaveLength(8);
  });
});

describe("filters", () => {
  freshCaller();
  test("matches q in the name or the username, any case, with % and _ taken literally", async () => {
    const [percent, underscore, plain, byUsername] = await seed([
      { name: "Half 50% off" },
      { name: "snake_case fan" },
      { name: "Plain 500 offx" },
      { name: "Nobody", username: "hidden_Handle_q" },
    ]);
    const names = async (q: string) => (await list(`q=${encodeURIComponent(q)}`)).body.users.map((u: { id: number }) => u.id);
    expect(await names("50%")).toEqual([percent]);
    expect(await names("e_c")).toEqual([underscore]);
    expect(await names("500 OFFX")).toEqual([plain]);
    expect(await names("HANDLE_Q")).toEqual([byUsername]);
    expect(await names("%")).toEqual([percent]);
  });

  test("takes a country by code or by name in any case", async () => {
    const [iceland] = await seed([{ name: "Islander", country: ["IS", "Iceland"] }]);
    for (const country of ["IS", "is", "Iceland", "iceland"]) {
      expect((await list(`country=${country}`)).body.users.map((u: { id: number }) => u.id)).toEqual([iceland]);
    }
  });

  test("leaves out people without an age once an age bound is set", async () => {
    const [ageless] = await seed([{ name: "Ageless One", age: null }]);
    expect((await list("q=ageless")).body.users.map((u: { id: number }) => u.id)).toEqual([ageless]);
    expect((await list("q=ageless&minAge=18")).body.users).toEqual([]);
  });
});

describe("refusals", () => {
  freshCaller();
  test.each([
    ["cursor", "cursor=abc"],
    ["cursor", "cursor=1.2.0"],
    ["cursor", "cursor=2.5.5"],
    ["cursor", `cursor=1.${"9".repeat(16)}.5`],
    ["limit", "limit=0"],
    ["limit", "limit=-1"],
    ["minAge", "minAge=x"],
    ["maxAge", "maxAge=1e3"],
    ["online", "online=yes"],
    ["country", "country=Atlantis"],
    ["country", "country=XX"],
    ["q", `q=${"a".repeat(101)}`],
  ])("answers a bad %s (%s) with 400 and a field message", async (field, query) => {
    const r = await list(query);
    expect(r.status).toBe(400);
    expect(r.body.code).toBe("validation");
    expect(r.body.fields[field]).toBeString();
  });

  test("holds back a caller who reads the list faster than anyone scrolls: 429 with Retry-After", async () => {
    const reader = await registerUser(t);
    const statuses: number[] = [];
    for (let i = 0; i < LIST_READS.burst + 5; i++) statuses.push((await list("limit=1", reader.token)).status);
    expect(statuses.slice(0, LIST_READS.burst - 2).every((s) => s === 200)).toBe(true);
    const refused = await list("limit=1", reader.token);
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe("rate_limited");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    // Another person is not held back by it.
    expect((await list("limit=1")).status).toBe(200);
  });
});
