// Video Roulette across instances: two whole apps over one Redis (a fresh key prefix) and one
// database, as in two-instances.test.ts. One of them holds the matchmaker's lease
// (src/roulette/cluster.ts); users waiting on different instances meet, talk and part as on one
// process, filters and keep-apart rules hold across both, and a partner whose instance dies hears
// roulette_partner_disconnected within 10 s.
import { beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { eq } from "drizzle-orm";
import { persistRouletteSessions } from "../../src/roulette/persist.ts";
import { rouletteSessions } from "../../src/storage/tables.ts";
import { makeTestApp } from "../support/app.ts";
import { clusterRoulette as roulette, matchmakerChosen, twoInstancesForFile } from "../support/two-instances.ts";
import { settled } from "../support/ws.ts";
import { until } from "../support/until.ts";
import { onlyFrom, pairUp, type RouletteFilters, rouletteSearch } from "../support/roulette.ts";

setDefaultTimeout(30_000);

const ENV = { PRESENCE_GRACE_SECONDS: "0", SIGNUP_RATE_LIMIT: "1000" };

const { engine, a, b, sockets, player } = twoInstancesForFile(ENV);
beforeAll(() => matchmakerChosen(a, b));

const matchmaker = () => roulette(a).matchmakerQueue ?? roulette(b).matchmakerQueue;
const onA = (profile: Record<string, unknown> = {}) => player(a, profile);
const onB = (profile: Record<string, unknown> = {}) => player(b, profile);

/** Each test's people get a country of their own, so nobody from an earlier test takes them. */
const COUNTRIES = ["FR", "IT", "ES", "PT", "NL", "BE", "AT", "CH", "PL", "SE", "NO", "DK", "FI", "IE", "GR", "CZ"];
let countries = 0;
const freshCountry = (): string => COUNTRIES[countries++ % COUNTRIES.length]!;

describe("roulette across two instances", () => {
  test("two users waiting on different instances are paired, exchange text and signals, and hear Next and Stop", async () => {
    const country = freshCountry();
    const ann = await onA({ country_code: country });
    const bob = await onB({ country_code: country });
    expect((await rouletteSearch(ann.s, ann.user.id, onlyFrom(country))).data.status).toBe("searching");
    expect((await rouletteSearch(bob.s, bob.user.id, onlyFrom(country))).data.status).toBe("paired");
    const fa = await ann.s.next("roulette_partner_found");
    const fb = await bob.s.next("roulette_partner_found");
    expect(fa.data.partner.id).toBe(fb.data.partner.id);
    const id = fa.data.partner.id as string;
    // Each side's instance relays to the other instance (nothing shared in one process's memory).
    expect(a.ctx.roulette.pairOf(ann.user.id)!.partner.remote?.instance).toBe(b.ctx.hub.instanceId);
    expect(b.ctx.roulette.pairOf(bob.user.id)!.partner.remote?.instance).toBe(a.ctx.hub.instanceId);
    // The searcher (Bob) makes the offer, as on one process; each sees the other as a stranger.
    expect(fb.data.shouldCreateOffer).toBe(true);
    expect(fa.data.shouldCreateOffer).toBe(false);
    expect(fa.data.partner).toMatchObject({ name: "Stranger", country_code: country, gender: "female" });

    bob.s.send("roulette_offer", { offer: { type: "offer", sdp: "v=0" }, partnerId: id });
    expect((await ann.s.next("roulette_offer")).data).toEqual({ offer: { type: "offer", sdp: "v=0" }, partnerId: id });
    ann.s.send("roulette_answer", { answer: { type: "answer", sdp: "v=0" }, partnerId: id });
    expect((await bob.s.next("roulette_answer")).data.partnerId).toBe(id);
    ann.s.send("roulette_ice_candidate", { candidate: { candidate: "c" }, partnerId: id });
    expect((await bob.s.next("roulette_ice_candidate")).data.partnerId).toBe(id);

    expect((await ann.s.ask("roulette_text", { partnerId: id, text: "hello from A" })).data.text).toBe("hello from A");
    expect((await bob.s.next("roulette_text")).data.text).toBe("hello from A");
    await bob.s.ask("roulette_text", { partnerId: id, text: "hello from B" });
    expect((await ann.s.next("roulette_text")).data.text).toBe("hello from B");
    // Each instance's copy of the session holds both sides' lines (a report from either carries them).
    for (const app of [a, b]) expect(app.ctx.roulette.sessions.find(id)!.lines.map((l) => l.text)).toEqual(["hello from A", "hello from B"]);

    bob.s.send("roulette_next", { userId: bob.user.id });
    await ann.s.next("roulette_partner_next");
    expect(a.ctx.roulette.partnerOf(ann.user.id)).toBeUndefined();
    expect(b.ctx.roulette.partnerOf(bob.user.id)).toBeUndefined();
    // Nobody else suits them: the two just parted meet again, then Ann presses Stop.
    await rouletteSearch(ann.s, ann.user.id, onlyFrom(country));
    expect((await rouletteSearch(bob.s, bob.user.id, onlyFrom(country))).data.status).toBe("paired");
    const again = (await ann.s.next("roulette_partner_found")).data.partner.id;
    expect((await bob.s.next("roulette_partner_found")).data.partner.id).toBe(again);
    expect(again).not.toBe(id);
    ann.s.send("roulette_stop_search", { userId: ann.user.id });
    await bob.s.next("roulette_partner_disconnected");
    // A line sent to an ended pairing is refused, as on one process.
    expect((await bob.s.ask("roulette_text", { partnerId: again, text: "still there?" })).error?.code).toBe("not_paired");
  });

  test("no frame names the other user or their instance", async () => {
    const country = freshCountry();
    const ann = await onA({ country_code: country, orientation: "bisexual" });
    const bob = await onB({ country_code: country, orientation: "pansexual" });
    await rouletteSearch(ann.s, ann.user.id, onlyFrom(country));
    await rouletteSearch(bob.s, bob.user.id, onlyFrom(country));
    const id = (await ann.s.next("roulette_partner_found")).data.partner.id;
    await bob.s.next("roulette_partner_found");
    await ann.s.ask("roulette_text", { partnerId: id, text: "hi" });
    await bob.s.next("roulette_text");
    await bob.s.ask("roulette_keep_in_touch", { partnerId: id });
    ann.s.send("roulette_next", { userId: ann.user.id });
    await bob.s.next("roulette_partner_next");
    const secrets = [String(ann.user.id), String(bob.user.id), ann.user.username, bob.user.username, a.ctx.hub.instanceId, b.ctx.hub.instanceId, "bisexual", "pansexual"];
    const frames = [...ann.heard, ...bob.heard].filter((raw) => raw.includes("roulette_") || raw.includes('"ack"'));
    expect(frames.length).toBeGreaterThan(6);
    for (const raw of frames) {
      const parsed = JSON.parse(raw);
      const values = JSON.stringify(parsed.data ?? {});
      for (const secret of secrets) expect(values.includes(`"${secret}"`) || values.includes(`:${secret},`) || values.includes(`:${secret}}`)).toBe(false);
    }
  });

  test("keep in touch across instances: nothing until both press, then each learns who the other is", async () => {
    const country = freshCountry();
    const ann = await onA({ country_code: country, name: "Ann Keep" });
    const bob = await onB({ country_code: country, name: "Bob Keep" });
    const id = await pairUp({ s: ann.s, user: ann.user }, { s: bob.s, user: bob.user });
    await ann.s.ask("roulette_keep_in_touch", { partnerId: id });
    expect(await bob.s.silent("roulette_contact", ann.s)).toBe(true);
    await bob.s.ask("roulette_keep_in_touch", { partnerId: id });
    expect((await ann.s.next("roulette_contact")).data.user.name).toBe("Bob Keep");
    expect((await bob.s.next("roulette_contact")).data.user.name).toBe("Ann Keep");
    ann.s.send("roulette_stop_search", { userId: ann.user.id });
    await bob.s.next("roulette_partner_disconnected");
  });

  test("filters hold across instances: a search meets only someone it suits both ways", async () => {
    const country = freshCountry();
    const ann = await onA({ country_code: country, gender: "female" });
    const max = await onB({ country_code: country, gender: "male" });
    const eve = await onB({ country_code: country, gender: "female" });
    // Ann waits for a woman; Max (a man) does not suit her, Eve does.
    expect((await rouletteSearch(ann.s, ann.user.id, onlyFrom(country, { gender: "female" }))).data.status).toBe("searching");
    expect((await rouletteSearch(max.s, max.user.id, onlyFrom(country))).data.status).toBe("searching");
    expect((await rouletteSearch(eve.s, eve.user.id, onlyFrom(country, { gender: "male" }))).data.status).toBe("paired");
    // Eve wanted a man: she met Max, and Ann still waits.
    expect((await max.s.next("roulette_partner_found")).data.partner.gender).toBe("female");
    expect(ann.s.saw("roulette_partner_found")).toBe(false);
    expect(a.ctx.roulette.isWaiting(ann.user.id)).toBe(true);
    for (const p of [ann, max, eve]) p.s.send("roulette_stop_search", { userId: p.user.id });
    await settled(ann.s, max.s, eve.s);
  });

  test("a stranger blocked or reported on one instance is never paired again with them, whichever instance they search on", async () => {
    const country = freshCountry();
    const ann = await onA({ country_code: country });
    const bob = await onB({ country_code: country });
    const id = await pairUp({ s: ann.s, user: ann.user }, { s: bob.s, user: bob.user });
    // Bob blocks the stranger by pairing id on B: Ann, on A, hears what Stop sends.
    const blocked = await b.call("POST", "/api/blocks", { token: bob.token, json: { rouletteId: id } });
    expect(blocked.status).toBe(201);
    await ann.s.next("roulette_partner_disconnected");
    await rouletteSearch(ann.s, ann.user.id, onlyFrom(country));
    expect((await rouletteSearch(bob.s, bob.user.id, onlyFrom(country))).data.status).toBe("searching");
    ann.s.send("roulette_stop_search", { userId: ann.user.id });
    bob.s.send("roulette_stop_search", { userId: bob.user.id });

    // A report made on A (from a profile) keeps Cleo and Dan apart though Dan searches on B.
    const cleo = await onA({ country_code: country });
    const dan = await onB({ country_code: country });
    const reported = await a.call("POST", "/api/reports", { token: cleo.token, json: { reportedUserId: dan.user.id, context: "profile", reason: "spam" } });
    expect(reported.status).toBe(201);
    await until(() => b.ctx.roulette.keptApart(cleo.user.id, dan.user.id), "the keep-apart pair reached B");
    await rouletteSearch(dan.s, dan.user.id, onlyFrom(country));
    expect((await rouletteSearch(cleo.s, cleo.user.id, onlyFrom(country))).data.status).toBe("searching");
    for (const p of [cleo, dan]) p.s.send("roulette_stop_search", { userId: p.user.id });
    await settled(cleo.s, dan.s);
  });

  test("a report by pairing id on the reporter's instance finds the stranger and both sides' lines", async () => {
    const country = freshCountry();
    const ann = await onA({ country_code: country });
    const bob = await onB({ country_code: country });
    const id = await pairUp({ s: ann.s, user: ann.user }, { s: bob.s, user: bob.user });
    await ann.s.ask("roulette_text", { partnerId: id, text: "rude words" });
    await bob.s.next("roulette_text");
    const r = await b.call("POST", "/api/reports", { token: bob.token, json: { rouletteId: id, context: "roulette", reason: "harassment" } });
    expect(r.status).toBe(201);
    await ann.s.next("roulette_partner_next");
  });

  test("a pairing across instances is saved once: one row, written by the instance of its side a", async () => {
    // The test apps save no sessions by themselves (server.ts starts that); here both do.
    const stores = await Promise.all([a, b].map((app) => persistRouletteSessions(app.ctx.roulette.sessions, app.ctx.db, app.ctx.log)));
    try {
      const country = freshCountry();
      const ann = await onA({ country_code: country });
      const bob = await onB({ country_code: country });
      const id = await pairUp({ s: ann.s, user: ann.user }, { s: bob.s, user: bob.user });
      await until(() => [a, b].every((app) => app.ctx.roulette.sessions.find(id) !== undefined), "both instances hold a copy");
      expect(await Promise.all(stores.map((store) => store.flush()))).toEqual([true, true]);
      expect(await a.ctx.db.select().from(rouletteSessions).where(eq(rouletteSessions.id, id))).toHaveLength(1);
      const sideA = a.ctx.roulette.sessions.find(id)!.a;
      const [keeper, other] = sideA === ann.user.id ? [a, b] : [b, a];
      expect(keeper.ctx.roulette.sessions.holds(keeper.ctx.roulette.sessions.find(id)!)).toBe(true);
      expect(other.ctx.roulette.sessions.holds(other.ctx.roulette.sessions.find(id)!)).toBe(false);
      for (const p of [ann, bob]) p.s.send("roulette_stop_search", { userId: p.user.id });
      await settled(ann.s, bob.s);
    } finally {
      for (const store of stores) await store.stop();
    }
  });

  test("closing the socket on one instance ends the pair for the partner on the other", async () => {
    const country = freshCountry();
    const ann = await onA({ country_code: country });
    const bob = await onB({ country_code: country });
    await pairUp({ s: ann.s, user: ann.user }, { s: bob.s, user: bob.user });
    bob.s.close();
    await ann.s.next("roulette_partner_disconnected");
    await until(() => a.ctx.roulette.partnerOf(ann.user.id) === undefined && matchmaker()?.partnerOf(ann.user.id) === undefined, "the pair is gone everywhere");
  });

  test("memory follows who is there: after everyone left, nothing is pending, waiting or paired", async () => {
    for (const s of sockets) s.close();
    await until(() => a.ctx.hub.openSockets === 0 && b.ctx.hub.openSockets === 0, "sockets closed");
    await until(() => {
      const queue = matchmaker();
      return !!queue && queue.waitingCount === 0 && [a, b].every((app) => roulette(app).waitingCount === 0 && roulette(app).pendingCount === 0);
    }, "nothing waits anywhere");
    for (const app of [a, b]) {
      expect(roulette(app).instancesHeard).toBeLessThanOrEqual(1);
      expect(roulette(app).pairedCount).toBe(0);
      expect(roulette(app).runningCount).toBe(0);
    }
    expect(matchmaker()!.pairedCount).toBe(0);
  });
});

describe("a third instance holding neither partner", () => {
  test("a report or a stranger block by pairing id sent to it finds the session and its lines, and ends the pair", async () => {
    const c = makeTestApp(ENV, { ports: engine.instance(), dataDir: a.dataDir });
    try {
      await c.ctx.ports.ready();
      c.listen();
      const country = freshCountry();
      const ann = await onA({ country_code: country });
      const bob = await onB({ country_code: country });
      const id = await pairUp({ s: ann.s, user: ann.user }, { s: bob.s, user: bob.user });
      await until(() => c.ctx.roulette.sessionOf(bob.user.id)?.id === id, "C knows the pairing");
      await ann.s.ask("roulette_text", { partnerId: id, text: "line one" });
      await bob.s.next("roulette_text");
      await until(() => c.ctx.roulette.sessions.find(id)?.lines.length === 1, "C's copy holds the line");
      // Bob's HTTP request lands on C (no sticky sessions): the report finds the stranger, and ends
      // the pairing for Bob as Next does, so Ann (on A) hears it.
      const r = await c.call("POST", "/api/reports", { token: bob.token, json: { rouletteId: id, context: "roulette", reason: "harassment" } });
      expect(r.status).toBe(201);
      await ann.s.next("roulette_partner_next");
      expect(b.ctx.roulette.partnerOf(bob.user.id)).toBeUndefined();
      // Paired with someone else, Ann blocks that stranger through C.
      const eve = await onB({ country_code: country });
      const second = await pairUp({ s: ann.s, user: ann.user }, { s: eve.s, user: eve.user });
      await until(() => c.ctx.roulette.sessionOf(ann.user.id)?.id === second, "C knows the second pairing");
      const blocked = await c.call("POST", "/api/blocks", { token: ann.token, json: { rouletteId: second } });
      expect(blocked.status).toBe(201);
      await eve.s.next("roulette_partner_disconnected");
      await until(() => [a, b, c].every((app) => roulette(app).runningCount === 0 || app.ctx.roulette.sessionOf(ann.user.id) === undefined), "the pairing ended everywhere");
      for (const app of [a, b, c]) expect(app.ctx.roulette.sessions.find(second)?.endedAt).not.toBeNull();
    } finally {
      await c.close();
    }
  });
});

describe("an instance that dies", () => {
  test("its users' partners hear roulette_partner_disconnected within 10 s, and the matchmaker forgets its people", async () => {
    // A third instance, killed without a word: its roulette stops beating and listening.
    const c = makeTestApp(ENV, { ports: engine.instance(), dataDir: a.dataDir });
    try {
      await c.ctx.ports.ready();
      const urlC = c.listen().wsUrl;
      const country = freshCountry();
      const ann = await onA({ country_code: country });
      const cid = await player(c, { country_code: country }, urlC);
      const ghost = await player(c, { country_code: country }, urlC);
      await pairUp({ s: ann.s, user: ann.user }, { s: cid.s, user: cid.user });
      // Someone on C waits too (for nobody who exists): once C is dead the matchmaker forgets them.
      await rouletteSearch(ghost.s, ghost.user.id, onlyFrom("ZZ"));
      await until(() => matchmaker()?.isWaiting(ghost.user.id) === true, "the ghost waits at the matchmaker");
      const started = Date.now();
      roulette(c).crash();
      await ann.s.next("roulette_partner_disconnected", 12_000);
      expect(Date.now() - started).toBeLessThan(10_000);
      await until(() => matchmaker()?.isWaiting(ghost.user.id) === false, "the matchmaker dropped the dead instance's people");
      expect(a.ctx.roulette.partnerOf(ann.user.id)).toBeUndefined();
    } finally {
      await c.close();
    }
  });
});

describe("the matchmaker's instance dies", () => {
  test("another instance takes over the lease and pairs the searches that were waiting", async () => {
    const [leader, survivor] = roulette(a).leading ? [a, b] : [b, a];
    const country = freshCountry();
    const ann = await player(survivor, { country_code: country });
    const bob = await player(survivor, { country_code: country });
    expect((await rouletteSearch(ann.s, ann.user.id, onlyFrom(country))).data.status).toBe("searching");
    roulette(leader).crash();
    // Ann's search goes to the new matchmaker once it leads; Bob's waits for one if need be.
    const started = Date.now();
    const answer = await rouletteSearch(bob.s, bob.user.id, onlyFrom(country));
    expect(answer.data?.status ?? answer.error?.code).toBe("paired");
    expect(roulette(survivor).leading).toBe(true);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect((await ann.s.next("roulette_partner_found")).data.partner.id).toBe((await bob.s.next("roulette_partner_found")).data.partner.id);
  });
});
