import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { connectedUser, type ConnectedUser, listeningApp } from "../support/listening.ts";
import type { TestSocket } from "../support/ws.ts";
import { until } from "../support/until.ts";
import { pairUp, rouletteSearch } from "../support/roulette.ts";

// Registering hashes passwords: slow on a busy machine.
setDefaultTimeout(20_000);

const t = listeningApp({ SIGNUP_RATE_LIMIT: "1000" });

const player = (profile: Record<string, unknown> = {}) => connectedUser(t, profile);
type Player = ConnectedUser;



describe("roulette pairing", () => {
  test("pairs two searchers as strangers: one pairing id, gender, country and age only; exactly one creates the offer", async () => {
    const a = await player({ name: "Roul A", gender: "male", country_code: "IT", age: 41 });
    const b = await player({ name: "Roul B", gender: "female", country_code: "ES", age: 27, orientation: "bisexual" });
    expect((await rouletteSearch(a.s, a.user.id)).data).toEqual({ status: "searching" });
    expect((await rouletteSearch(b.s, b.user.id)).data).toEqual({ status: "paired" });
    const fa = await a.s.next("roulette_partner_found");
    const fb = await b.s.next("roulette_partner_found");
    // Issue 24: with no interests or languages given, both lists are empty.
    const none = { sharedInterests: [], languages: [] };
    expect(fa.data.partner).toEqual({ id: expect.any(String), name: "Stranger", gender: "female", country_code: "ES", country_name: "Spain", age: 27, ...none });
    expect(fb.data.partner).toEqual({ id: fa.data.partner.id, name: "Stranger", gender: "male", country_code: "IT", country_name: "Italy", age: 41, ...none });
    expect(fa.data.partner.id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect([fa.data.shouldCreateOffer, fb.data.shouldCreateOffer].sort()).toEqual([false, true]);
    a.s.send("roulette_stop_search", { userId: a.user.id });
    await b.s.next("roulette_partner_disconnected");
    a.s.close();
    b.s.close();
  });

  test("gives the same two people a new pairing id every time they meet", async () => {
    const a = await player();
    const b = await player();
    const first = await pairUp(a, b);
    a.s.send("roulette_next", { userId: a.user.id });
    await b.s.next("roulette_partner_next");
    const second = await pairUp(a, b);
    expect(second).not.toBe(first);
    a.s.close();
    b.s.close();
  });

  test("respects both sides' gender and country filters", async () => {
    const m = await player({ gender: "male", country_code: "PL" });
    const f = await player({ gender: "female", country_code: "PL" });
    // m wants women from Poland; f wants men from Canada: no pair.
    await rouletteSearch(m.s, m.user.id, { gender: "female", country: "PL" });
    expect((await rouletteSearch(f.s, f.user.id, { gender: "male", country: "CA" })).data.status).toBe("searching");
    // f changes her mind: men from Poland.
    expect((await rouletteSearch(f.s, f.user.id, { gender: "male", country: "pl" })).data.status).toBe("paired");
    await m.s.next("roulette_partner_found");
    for (const p of [m, f]) p.s.close();
  });

  test("relays offers, answers and candidates only between current partners, with partnerId set to the pairing id", async () => {
    const a = await player();
    const b = await player();
    const x = await player();
    const id = await pairUp(a, b);
    a.s.send("roulette_offer", { offer: { type: "offer", sdp: "v=0" }, partnerId: id });
    expect((await b.s.next("roulette_offer")).data).toEqual({ offer: { type: "offer", sdp: "v=0" }, partnerId: id });
    b.s.send("roulette_answer", { answer: { type: "answer", sdp: "v=0" }, partnerId: id });
    expect((await a.s.next("roulette_answer")).data.partnerId).toBe(id);
    b.s.send("roulette_ice_candidate", { candidate: { candidate: "c1" }, partnerId: id });
    expect((await a.s.next("roulette_ice_candidate")).data).toEqual({ candidate: { candidate: "c1" }, partnerId: id });
    // An outsider who learned the pairing id, or a partner using a user id, reaches nobody.
    expect((await x.s.ask("roulette_offer", { offer: { sdp: "evil" }, partnerId: id })).error?.code).toBe("not_paired");
    expect((await a.s.ask("roulette_offer", { offer: { sdp: "v=0" }, partnerId: String(b.user.id) })).error?.code).toBe("not_paired");
    expect(await b.s.silent("roulette_offer", x.s, a.s)).toBe(true);
    for (const p of [a, b, x]) p.s.close();
  });

  test("refuses to search, stop or skip for someone else", async () => {
    const a = await player();
    const b = await player();
    expect((await a.s.ask("roulette_search", { userId: b.user.id, filters: { gender: "any", country: "any" } })).error?.code).toBe("forbidden");
    expect((await a.s.ask("roulette_next", { userId: b.user.id })).error?.code).toBe("forbidden");
    expect((await a.s.ask("roulette_stop_search", { userId: b.user.id })).error?.code).toBe("forbidden");
    expect((await a.s.ask("roulette_search", { userId: a.user.id, filters: { gender: "robot", country: "any" } })).error?.code).toBe("validation");
    a.s.close();
    b.s.close();
  });

  test("Next tells the partner and pairs with a third user rather than the one just left", async () => {
    const a = await player();
    const b = await player();
    await pairUp(a, b);
    const c = await player({ gender: "male", age: 55 });
    await rouletteSearch(c.s, c.user.id);
    a.s.send("roulette_next", { userId: a.user.id });
    await b.s.next("roulette_partner_next");
    // b searches again at once: c is waiting, so b gets c.
    expect((await rouletteSearch(b.s, b.user.id)).data.status).toBe("paired");
    expect((await b.s.next("roulette_partner_found")).data.partner).toMatchObject({ gender: "male", age: 55 });
    // a searches: nobody else is waiting; a waits.
    expect((await rouletteSearch(a.s, a.user.id)).data.status).toBe("searching");
    for (const p of [a, b, c]) p.s.close();
  });

  test("two users who just parted meet again when nobody else is waiting", async () => {
    const a = await player();
    const b = await player();
    await pairUp(a, b);
    a.s.send("roulette_next", { userId: a.user.id });
    await b.s.next("roulette_partner_next");
    await rouletteSearch(a.s, a.user.id);
    expect((await rouletteSearch(b.s, b.user.id)).data.status).toBe("paired");
    a.s.close();
    b.s.close();
  });

  test("closing a socket ends the pair and takes the user out of the queue", async () => {
    const a = await player();
    const b = await player();
    await rouletteSearch(a.s, a.user.id);
    await rouletteSearch(b.s, b.user.id);
    await b.s.next("roulette_partner_found");
    a.s.close();
    await b.s.next("roulette_partner_disconnected");
    const w = await player();
    await rouletteSearch(w.s, w.user.id);
    w.s.close();
    await until(() => !t.ctx.roulette.isWaiting(w.user.id), "the closed socket's user leaving the queue");
    const c = await player();
    expect((await rouletteSearch(c.s, c.user.id)).data.status).toBe("searching");
    b.s.close();
    c.s.close();
  });
});
