import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { makeTestApp, registerUser, type TestApp } from "../support/app.ts";
import { connect, type TestSocket } from "../support/ws.ts";

let t: TestApp;
let wsUrl: string;
beforeAll(() => {
  t = makeTestApp();
  wsUrl = t.listen().wsUrl;
});
afterAll(() => t.close());

async function player(profile: Record<string, unknown> = {}) {
  const u = await registerUser(t, profile);
  return { ...u, s: await connect(wsUrl, u.token) };
}

const search = (s: TestSocket, userId: number, filters = { gender: "any", country: "any" }) => s.ask("roulette_search", { userId, filters });

describe("roulette pairing", () => {
  test("pairs two searchers; exactly one creates the offer; each sees the other's profile", async () => {
    const a = await player({ name: "Roul A", gender: "male", country_code: "IT" });
    const b = await player({ name: "Roul B", gender: "female", country_code: "ES" });
    expect((await search(a.s, a.user.id)).data).toEqual({ status: "searching" });
    expect((await search(b.s, b.user.id)).data).toEqual({ status: "paired" });
    const fa = await a.s.next("roulette_partner_found");
    const fb = await b.s.next("roulette_partner_found");
    expect(fa.data.partner).toMatchObject({ id: b.user.id, name: "Roul B", gender: "female", country_code: "ES" });
    expect(fb.data.partner.id).toBe(a.user.id);
    expect(fb.data.partner.email).toBeUndefined();
    expect([fa.data.shouldCreateOffer, fb.data.shouldCreateOffer].sort()).toEqual([false, true]);
    a.s.send("roulette_stop_search", { userId: a.user.id });
    await b.s.next("roulette_partner_disconnected");
    a.s.close();
    b.s.close();
  });

  test("respects both sides' gender and country filters", async () => {
    const m = await player({ gender: "male", country_code: "PL" });
    const f = await player({ gender: "female", country_code: "PL" });
    // m wants women from Poland; f wants men from Canada: no pair.
    await search(m.s, m.user.id, { gender: "female", country: "PL" });
    expect((await search(f.s, f.user.id, { gender: "male", country: "CA" })).data.status).toBe("searching");
    // f changes her mind: men from Poland.
    expect((await search(f.s, f.user.id, { gender: "male", country: "pl" })).data.status).toBe("paired");
    await m.s.next("roulette_partner_found");
    for (const p of [m, f]) p.s.close();
  });

  test("relays offers, answers and candidates only between current partners, with partnerId set to the sender", async () => {
    const a = await player();
    const b = await player();
    const x = await player();
    await search(a.s, a.user.id);
    await search(b.s, b.user.id);
    await a.s.next("roulette_partner_found");
    await b.s.next("roulette_partner_found");
    a.s.send("roulette_offer", { offer: { type: "offer", sdp: "v=0" }, partnerId: b.user.id });
    expect((await b.s.next("roulette_offer")).data).toEqual({ offer: { type: "offer", sdp: "v=0" }, partnerId: a.user.id });
    b.s.send("roulette_answer", { answer: { type: "answer", sdp: "v=0" }, partnerId: a.user.id });
    expect((await a.s.next("roulette_answer")).data.partnerId).toBe(b.user.id);
    b.s.send("roulette_ice_candidate", { candidate: { candidate: "c1" }, partnerId: a.user.id });
    expect((await a.s.next("roulette_ice_candidate")).data).toEqual({ candidate: { candidate: "c1" }, partnerId: b.user.id });
    const refused = await x.s.ask("roulette_offer", { offer: { sdp: "evil" }, partnerId: b.user.id });
    expect(refused.error?.code).toBe("not_paired");
    expect(await b.s.silent("roulette_offer")).toBe(true);
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
    await search(a.s, a.user.id);
    await search(b.s, b.user.id);
    await a.s.next("roulette_partner_found");
    await b.s.next("roulette_partner_found");
    const c = await player();
    await search(c.s, c.user.id);
    a.s.send("roulette_next", { userId: a.user.id });
    await b.s.next("roulette_partner_next");
    // b searches again at once: a is waiting-free, c is waiting. b gets c.
    expect((await search(b.s, b.user.id)).data.status).toBe("paired");
    expect((await b.s.next("roulette_partner_found")).data.partner.id).toBe(c.user.id);
    // a searches: only... nobody suitable but a's former partner is paired; a waits.
    expect((await search(a.s, a.user.id)).data.status).toBe("searching");
    for (const p of [a, b, c]) p.s.close();
  });

  test("two users who just parted meet again when nobody else is waiting", async () => {
    const a = await player();
    const b = await player();
    await search(a.s, a.user.id);
    await search(b.s, b.user.id);
    await a.s.next("roulette_partner_found");
    a.s.send("roulette_next", { userId: a.user.id });
    await b.s.next("roulette_partner_next");
    await search(a.s, a.user.id);
    expect((await search(b.s, b.user.id)).data.status).toBe("paired");
    a.s.close();
    b.s.close();
  });

  test("closing a socket ends the pair and takes the user out of the queue", async () => {
    const a = await player();
    const b = await player();
    await search(a.s, a.user.id);
    await search(b.s, b.user.id);
    await b.s.next("roulette_partner_found");
    a.s.close();
    await b.s.next("roulette_partner_disconnected");
    const w = await player();
    await search(w.s, w.user.id);
    w.s.close();
    await Bun.sleep(100);
    const c = await player();
    expect((await search(c.s, c.user.id)).data.status).toBe("searching");
    b.s.close();
    c.s.close();
  });
});
