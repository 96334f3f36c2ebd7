// Video Roulette with interests and languages (issue 24, API.md "Interests and languages"): the
// shared-interest preference, the fallback after ROULETTE_INTEREST_WAIT_SECONDS (small here),
// interests only, the language filter, and what a stranger learns (only the shared interests).
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { connectedUser, listeningApp, type ConnectedUser } from "../support/listening.ts";
import { rouletteSearch, ANYONE, type RouletteFilters } from "../support/roulette.ts";
import { settled } from "../support/ws.ts";

setDefaultTimeout(30_000);

const WAIT_MS = 400;
const t = listeningApp({
  SIGNUP_RATE_LIMIT: "1000",
  ROULETTE_INTEREST_WAIT_SECONDS: String(WAIT_MS / 1000),
  ROULETTE_WAITING_PER_ADDRESS: "1000",
  ROULETTE_WAITING_PER_DEVICE: "1000",
});

/** Someone connected, with the profile's interests and spoken languages set. */
async function player(profile: { interests?: string[]; languages?: string[]; gender?: string } = {}) {
  const u = await connectedUser(t, profile.gender ? { gender: profile.gender } : {});
  if (profile.interests || profile.languages) {
    const r = await t.call("PUT", "/api/users/profile", { token: u.token, json: { name: u.user.name, ...profile, gender: undefined } });
    expect(r.status).toBe(200);
  }
  const heard: string[] = [];
  u.s.ws.addEventListener("message", (e) => heard.push(String(e.data)));
  return { ...u, heard };
}
type Player = Awaited<ReturnType<typeof player>>;

const search = async (p: ConnectedUser, filters: Partial<RouletteFilters> = {}) => (await rouletteSearch(p.s, p.user.id, { ...ANYONE, ...filters })).data?.status as string;
const found = async (p: ConnectedUser) => (await p.s.next("roulette_partner_found")).data;
const leave = (...players: Player[]) => players.forEach((p) => p.s.close());

describe("shared interests", () => {
  test("two people sharing an interest are paired at once; each learns only the shared ones and the other's languages", async () => {
    const a = await player({ languages: ["de", "en"] });
    const b = await player({ languages: ["fr"] });
    expect(await search(a, { interests: ["chess", "Hiking", "secret garden"] })).toBe("searching");
    expect(await search(b, { interests: ["hiking", "chess", "opera"] })).toBe("paired");
    const [fa, fb] = [await found(a), await found(b)];
    // The same list on both sides, in the order of the one who searched last.
    expect(fa.partner.sharedInterests).toEqual(["hiking", "chess"]);
    expect(fb.partner.sharedInterests).toEqual(["hiking", "chess"]);
    expect(fa.partner.languages).toEqual(["fr"]);
    expect(fb.partner.languages).toEqual(["de", "en"]);
    // Neither hears the other's interests beyond the shared ones, nor an id.
    expect(b.heard.join("")).not.toContain("secret garden");
    expect(a.heard.join("")).not.toContain("opera");
    expect(Object.keys(fa.partner).sort()).toEqual(["age", "country_code", "country_name", "gender", "id", "languages", "name", "sharedInterests"]);
    // Only those keys, and no value is the user id (strangers.test.ts walks every roulette frame).
    expect(Object.values(fa.partner)).not.toContain(b.user.id);
    leave(a, b);
  });

  test("the longest-waiting person sharing an interest goes before longer-waiting people who share none", async () => {
    const plain = await player();
    const other = await player();
    const chess1 = await player();
    const chess2 = await player();
    expect(await search(plain)).toBe("searching");
    expect(await search(other, { interests: ["knitting"] })).toBe("searching");
    expect(await search(chess1, { interests: ["chess"] })).toBe("searching");
    expect(await search(chess2, { interests: ["go", "chess"] })).toBe("paired");
    expect((await found(chess1)).partner.sharedInterests).toEqual(["chess"]);
    expect((await found(chess2)).partner.sharedInterests).toEqual(["chess"]);
    expect(await plain.s.silent("roulette_partner_found", chess2.s)).toBe(true);
    leave(plain, other, chess1, chess2);
  });

  test("interests default to the profile's; an empty list searches without them", async () => {
    const a = await player({ interests: ["Board Games"] });
    const b = await player();
    expect(await search(a)).toBe("searching");
    expect(await search(b, { interests: ["board games"] })).toBe("paired");
    expect((await found(b)).partner.sharedInterests).toEqual(["board games"]);
    await found(a);
    const c = await player({ interests: ["board games"] });
    const d = await player();
    expect(await search(c, { interests: [] })).toBe("searching");
    // No interests on either side: paired at once, as before.
    expect(await search(d)).toBe("paired");
    expect((await found(d)).partner.sharedInterests).toEqual([]);
    leave(a, b, c, d);
  });

  test("a search's interests follow the profile rules: a bad one is refused", async () => {
    const a = await player();
    const answer = await rouletteSearch(a.s, a.user.id, { ...ANYONE, interests: ["c++"] });
    expect(answer.error?.code).toBe("validation");
    const tooMany = await rouletteSearch(a.s, a.user.id, { ...ANYONE, interests: Array.from({ length: 11 }, (_, i) => `tag ${i}`) });
    expect(tooMany.error?.code).toBe("validation");
    expect(t.ctx.roulette.isWaiting(a.user.id)).toBe(false);
    leave(a);
  });
});

describe("the fallback after the interest wait", () => {
  test(`people with no interest in common are paired after ${WAIT_MS} ms, counted from the later one's search, with no shared interests`, async () => {
    const a = await player();
    const b = await player();
    expect(await search(a, { interests: ["chess"] })).toBe("searching");
    const searchedAt = Date.now();
    expect(await search(b, { interests: ["hiking"] })).toBe("searching");
    const [fa, fb] = [await found(a), await found(b)];
    expect(Date.now() - searchedAt).toBeGreaterThanOrEqual(WAIT_MS - 5);
    expect(fa.partner.sharedInterests).toEqual([]);
    expect(fb.partner.sharedInterests).toEqual([]);
    expect(fa.partner.id).toBe(fb.partner.id);
    expect(fa.shouldCreateOffer !== fb.shouldCreateOffer).toBe(true);
    // The pairing works like any other: text reaches the partner.
    await a.s.ask("roulette_text", { partnerId: fa.partner.id, text: "hello" });
    expect((await b.s.next("roulette_text")).data.text).toBe("hello");
    leave(a, b);
  });

  test("someone without interests waits for a searcher with interests to finish their wait, then they meet", async () => {
    const a = await player();
    const b = await player();
    expect(await search(a, { interests: ["chess"] })).toBe("searching");
    const searchedAt = Date.now();
    expect(await search(b)).toBe("searching");
    await found(b);
    expect((await found(a)).partner.sharedInterests).toEqual([]);
    expect(Date.now() - searchedAt).toBeGreaterThanOrEqual(WAIT_MS - 50);
    leave(a, b);
  });

  test("a search stopped during its wait is not paired when the wait ends", async () => {
    const a = await player();
    const b = await player();
    const c = await player();
    expect(await search(a, { interests: ["chess"] })).toBe("searching");
    a.s.send("roulette_stop_search", { userId: a.user.id });
    await settled(a.s);
    expect(await search(b)).toBe("searching");
    expect(await search(c)).toBe("paired");
    await Promise.all([found(b), found(c)]);
    // Well past a's wait: b and c were paired, a heard nothing.
    expect(await a.s.silent("roulette_partner_found", b.s, c.s)).toBe(true);
    expect(t.ctx.roulette.isWaiting(a.user.id)).toBe(false);
    leave(a, b, c);
  });
});

describe("interests only", () => {
  test("waits only for a shared interest: others are paired past them, one sharing meets them", async () => {
    const only = await player();
    const hiker = await player();
    const plain = await player();
    expect(await search(only, { interests: ["chess"], interestsOnly: true })).toBe("searching");
    expect(await search(hiker, { interests: ["hiking"] })).toBe("searching");
    expect(await search(plain)).toBe("searching");
    // After the hiker's wait, the hiker takes plain, not the longer-waiting "interests only" one.
    const [fh, fp] = [await found(hiker), await found(plain)];
    expect(fh.partner.id).toBe(fp.partner.id);
    expect(await only.s.silent("roulette_partner_found", hiker.s, plain.s)).toBe(true);
    expect(t.ctx.roulette.isWaiting(only.user.id)).toBe(true);
    const chess = await player();
    expect(await search(chess, { interests: ["chess", "poker"] })).toBe("paired");
    expect((await found(only)).partner.sharedInterests).toEqual(["chess"]);
    leave(only, hiker, plain, chess);
  });

  test("interests only without interests is a search like any other", async () => {
    const a = await player();
    const b = await player();
    expect(await search(a, { interests: [], interestsOnly: true })).toBe("searching");
    expect(await search(b)).toBe("paired");
    leave(a, b);
  });
});

describe("the language filter", () => {
  test("pairs only with someone who speaks the language, both ways", async () => {
    const french = await player({ languages: ["fr"] });
    const german = await player({ languages: ["de", "en"] });
    expect(await search(french)).toBe("searching");
    expect(await search(german)).toBe("paired");
    await Promise.all([found(french), found(german)]);
    leave(french, german);

    const fr = await player({ languages: ["fr"] });
    const de = await player({ languages: ["de"] });
    const seeker = await player({ languages: ["en", "de"] });
    expect(await search(fr, { language: "fr" })).toBe("searching");
    expect(await search(de, { language: "de" })).toBe("searching");
    expect(await search(seeker, { language: "DE" })).toBe("paired");
    expect((await found(seeker)).partner.languages).toEqual(["de"]);
    await found(de);
    // fr waits for Portuguese speakers only: an English speaker is not offered, a Portuguese one is.
    expect(await search(fr, { language: "pt" })).toBe("searching");
    const en = await player({ languages: ["en"] });
    expect(await search(en)).toBe("searching");
    const pt = await player({ languages: ["pt", "es"] });
    expect(await search(pt)).toBe("paired");
    expect((await found(fr)).partner.languages).toEqual(["pt", "es"]);
    leave(fr, de, seeker, en, pt);
  });

  test("someone who gave no languages is found only by searches for any language", async () => {
    const silent = await player();
    const seeker = await player({ languages: ["en"] });
    expect(await search(silent)).toBe("searching");
    expect(await search(seeker, { language: "en" })).toBe("searching");
    const anyone = await player();
    expect(await search(anyone)).toBe("paired");
    expect(t.ctx.roulette.isWaiting(seeker.user.id)).toBe(true);
    leave(silent, seeker, anyone);
  });

  test("combines with interests: a shared interest in the wrong language is not offered", async () => {
    const a = await player({ languages: ["es"] });
    const b = await player({ languages: ["it"] });
    expect(await search(a, { interests: ["tango"], language: "it" })).toBe("searching");
    const c = await player({ languages: ["fr"] });
    expect(await search(c, { interests: ["tango"] })).toBe("searching");
    expect(await search(b, { interests: ["tango"] })).toBe("paired");
    expect((await found(a)).partner).toMatchObject({ sharedInterests: ["tango"], languages: ["it"] });
    leave(a, b, c);
  });

  test("a language that is not an ISO 639-1 code is refused", async () => {
    const a = await player();
    expect((await rouletteSearch(a.s, a.user.id, { ...ANYONE, language: "xx" })).error?.code).toBe("validation");
    expect((await rouletteSearch(a.s, a.user.id, { ...ANYONE, language: "english" })).error?.code).toBe("validation");
    leave(a);
  });
});
