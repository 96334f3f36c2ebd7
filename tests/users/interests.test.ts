// Interests and spoken languages on profiles, and the suggestions route (issue 24, API.md
// "Interests and languages"): the rules, the public record, tags suggested only once 5 people list
// them, and the per-user limits.
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { makeTestApp, registerUser } from "../support/app.ts";
import { guest } from "../support/moderation.ts";
import { PROFILE_CHANGES_PER_HOUR, SUGGESTION_READS } from "../../src/users/index.ts";
import { MAX_SUGGESTIONS, SUGGEST_MIN_USES } from "../../src/users/interests.ts";

setDefaultTimeout(20_000);

const t = makeTestApp({ SIGNUP_RATE_LIMIT: "1000" });
afterAll(() => t.close());

const save = (token: string, json: Record<string, unknown>) => t.call("PUT", "/api/users/profile", { token, json: { name: "Someone", ...json } });
const suggest = (token: string, prefix?: string) =>
  t.call("GET", `/api/interests/suggestions${prefix === undefined ? "" : `?prefix=${encodeURIComponent(prefix)}`}`, { token });

describe("interests and languages on a profile", () => {
  test("are trimmed, lower-cased, in any script, without duplicates; languages lower-cased; shown on the public record", async () => {
    const me = await registerUser(t);
    const r = await save(me.token, { interests: ["  Chess ", "chess", "Rock  Climbing", "ЧТЕНИЕ", "हिंदी संगीत", "k-pop", "42"], languages: ["EN", "pt", "en"] });
    expect(r.status).toBe(200);
    expect(r.body.user.interests).toEqual(["chess", "rock climbing", "чтение", "हिंदी संगीत", "k-pop", "42"]);
    expect(r.body.user.languages).toEqual(["en", "pt"]);
    const viewer = await registerUser(t);
    const seen = await t.call("GET", `/api/users/${me.user.id}`, { token: viewer.token });
    expect(seen.body.user.interests).toEqual(["chess", "rock climbing", "чтение", "हिंदी संगीत", "k-pop", "42"]);
    expect(seen.body.user.languages).toEqual(["en", "pt"]);
    expect((await t.call("GET", "/api/auth/me", { token: me.token })).body.user.languages).toEqual(["en", "pt"]);
  });

  test("start empty, stay as they are when not sent, and clear with an empty list", async () => {
    const me = await registerUser(t);
    expect((await t.call("GET", "/api/auth/me", { token: me.token })).body.user).toMatchObject({ interests: [], languages: [] });
    await save(me.token, { interests: ["chess"], languages: ["de"] });
    expect((await save(me.token, { age: 40 })).body.user).toMatchObject({ interests: ["chess"], languages: ["de"] });
    expect((await save(me.token, { interests: [], languages: [] })).body.user).toMatchObject({ interests: [], languages: [] });
  });

  test.each([
    [{ interests: ["x"] }, "interests"],
    [{ interests: ["a".repeat(25)] }, "interests"],
    [{ interests: ["c++"] }, "interests"],
    [{ interests: ["emoji 🎉"] }, "interests"],
    [{ interests: Array.from({ length: 11 }, (_, i) => `tag ${i}`) }, "interests"],
    [{ interests: "chess" }, "interests"],
    [{ interests: [1] }, "interests"],
    [{ languages: ["xx"] }, "languages"],
    [{ languages: ["eng"] }, "languages"],
    [{ languages: ["en", "de", "fr", "es", "it", "pt"] }, "languages"],
  ])("refuses %j with 400 on %s", async (body, field) => {
    const me = await guest(t);
    const r = await save(me.token, body);
    expect(r.status).toBe(400);
    expect(r.body.code).toBe("validation");
    expect(r.body.fields[field]).toBeString();
  });

  test("eleven tags that are ten once duplicates go are taken", async () => {
    const me = await guest(t);
    const r = await save(me.token, { interests: [...Array.from({ length: 10 }, (_, i) => `tag ${i}`), "TAG 0"] });
    expect(r.status).toBe(200);
    expect(r.body.user.interests).toHaveLength(10);
  });

  test(`profile changes are limited per user: ${PROFILE_CHANGES_PER_HOUR} an hour, then 429`, async () => {
    const me = await guest(t);
    for (let i = 0; i < PROFILE_CHANGES_PER_HOUR; i++) expect((await save(me.token, { interests: [`n${i}`] })).status).toBe(200);
    const refused = await save(me.token, { interests: ["one more"] });
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBeTruthy();
    // Someone else is not held back.
    expect((await save((await guest(t)).token, { interests: ["chess"] })).status).toBe(200);
  });
});

describe("interest suggestions", () => {
  test(`suggest only tags that at least ${SUGGEST_MIN_USES} people list, most used first, by prefix, never who lists them`, async () => {
    const people = await Promise.all(Array.from({ length: 7 }, () => guest(t)));
    // "sudoku" by all 7, "surfing" by 5, "sushi" by 4, "sun salutation" by 1.
    for (const [i, p] of people.entries()) {
      const tags = ["sudoku"];
      if (i < 5) tags.push("surfing");
      if (i < 4) tags.push("sushi");
      if (i === 0) tags.push("sun salutation");
      expect((await save(p.token, { interests: tags })).status).toBe(200);
    }
    const asker = await guest(t);
    const r = await suggest(asker.token, "SU");
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ suggestions: ["sudoku", "surfing"] });
    expect((await suggest(asker.token, "sur")).body.suggestions).toEqual(["surfing"]);
    expect((await suggest(asker.token, "sus")).body.suggestions).toEqual([]);
    expect((await suggest(asker.token, "sun")).body.suggestions).toEqual([]);
    // Nothing in the answer names a person.
    for (const p of people) expect(r.text).not.toContain(p.username);

    // One of the five drops "surfing": four is too few, and it is no longer suggested.
    await save(people[0]!.token, { interests: ["sudoku", "sushi", "sun salutation"] });
    expect((await suggest(asker.token, "su")).body.suggestions).toEqual(["sudoku"]);
    // A fifth "sushi" makes it one.
    await save(people[6]!.token, { interests: ["sudoku", "sushi"] });
    expect((await suggest(asker.token, "su")).body.suggestions).toEqual(["sudoku", "sushi"]);
  });

  test(`answer at most ${MAX_SUGGESTIONS}, the most used of all without a prefix`, async () => {
    const people = await Promise.all(Array.from({ length: SUGGEST_MIN_USES }, () => guest(t)));
    const tags = Array.from({ length: 10 }, (_, i) => `zz topic ${i}`);
    for (const p of people) await save(p.token, { interests: tags });
    const asker = await guest(t);
    expect((await suggest(asker.token, "zz")).body.suggestions).toHaveLength(MAX_SUGGESTIONS);
    const all = (await suggest(asker.token)).body.suggestions as string[];
    expect(all.length).toBeLessThanOrEqual(MAX_SUGGESTIONS);
    expect(all[0]).toBe("sudoku");
  });

  test("refuse a prefix past 100 characters, need a session, and are limited per user", async () => {
    const asker = await guest(t);
    const long = await suggest(asker.token, "a".repeat(101));
    expect(long.status).toBe(400);
    expect(long.body.fields.prefix).toBeString();
    expect((await suggest("")).status).toBe(401);
    const limited = await guest(t);
    let refused = 0;
    for (let i = 0; i < SUGGESTION_READS.burst + 5; i++) if ((await suggest(limited.token, "s")).status === 429) refused++;
    expect(refused).toBeGreaterThan(0);
    expect((await suggest(asker.token, "s")).status).toBe(200);
  });
});
