// Roulette partners stay strangers: socket tests for the pairing id, text chat, keep in touch,
// and who may never be paired (blocks, reports, adults only, suspension).
import { transaction } from "../../src/storage/index.ts";
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { eq } from "drizzle-orm";
import { users } from "../../src/storage/tables.ts";
import { closeSockets, connectedUser, listeningApp } from "../support/listening.ts";
import { settled, type TestSocket } from "../support/ws.ts";
import { pairUp, rouletteSearch } from "../support/roulette.ts";
import { clockMovesOn } from "../support/until.ts";

// Registering hashes passwords: slow on a busy machine.
setDefaultTimeout(20_000);

const t = listeningApp({ SIGNUP_RATE_LIMIT: "1000" });

async function player(profile: Record<string, unknown> = {}) {
  const u = await connectedUser(t, profile);
  /** Every frame this socket ever received, raw. */
  const heard: string[] = [];
  u.s.ws.addEventListener("message", (e) => heard.push(String(e.data)));
  return { ...u, heard };
}
type Player = Awaited<ReturnType<typeof player>>;




/** Every key and value of a JSON frame, with the key each value sits under. */
function* walk(value: unknown, key = ""): Generator<[string, unknown]> {
  if (Array.isArray(value)) for (const item of value) yield* walk(item, key);
  else if (typeof value === "object" && value !== null) for (const [k, v] of Object.entries(value)) yield* walk(v, k);
  else yield [key, value];
}

describe("anonymous roulette", () => {
  test("no roulette frame carries either user's id, username, avatar or orientation", async () => {
    const a = await player({ orientation: "bisexual" });
    const b = await player({ orientation: "pansexual" });
    const id = await pairUp(a, b);
    a.s.send("roulette_offer", { offer: { type: "offer", sdp: "v=0" }, partnerId: id });
    await b.s.next("roulette_offer");
    b.s.send("roulette_answer", { answer: { type: "answer", sdp: "v=0" }, partnerId: id });
    await a.s.next("roulette_answer");
    a.s.send("roulette_ice_candidate", { candidate: { candidate: "c" }, partnerId: id });
    await b.s.next("roulette_ice_candidate");
    await a.s.ask("roulette_text", { partnerId: id, text: "hi there" });
    await b.s.next("roulette_text");
    await b.s.ask("roulette_keep_in_touch", { partnerId: id });
    a.s.send("roulette_next", { userId: a.user.id });
    await b.s.next("roulette_partner_next");

    const ids = [a.user.id, b.user.id];
    const names = [a.user.username, b.user.username];
    // Presence events go to everyone online whatever they do; every other frame here is roulette's.
    const frames = [...a.heard, ...b.heard].map((raw) => JSON.parse(raw)).filter((f) => f.ack !== undefined || f.event?.startsWith("roulette_"));
    expect(frames.length).toBeGreaterThan(10);
    for (const frame of frames) {
      for (const [key, value] of walk(frame)) {
        expect(["userId", "username", "avatar_url", "orientation", "email"]).not.toContain(key);
        if (typeof value === "number" && key !== "age" && key !== "ack") expect(ids).not.toContain(value);
        if (typeof value === "string") {
          for (const name of names) expect(value.toLowerCase()).not.toContain(name.toLowerCase());
          expect(ids.map(String)).not.toContain(value);
          expect(["bisexual", "pansexual"]).not.toContain(value);
        }
      }
    }
    closeSockets(a, b);
  });
});

describe("roulette text", () => {
  test("reaches the current partner only, trimmed, with the time it was sent", async () => {
    const a = await player();
    const b = await player();
    const c = await player();
    const d = await player();
    const id = await pairUp(a, b);
    await pairUp(c, d);
    const ack = await a.s.ask("roulette_text", { partnerId: id, text: "  hello stranger \n" });
    expect(ack.data).toEqual({ text: "hello stranger", at: expect.any(String) });
    const got = await b.s.next("roulette_text");
    expect(got.data).toEqual({ text: "hello stranger", at: ack.data.at });
    expect(new Date(got.data.at).toISOString()).toBe(got.data.at);
    expect(await a.s.silent("roulette_text")).toBe(true);
    expect(await c.s.silent("roulette_text", a.s)).toBe(true);
    expect(await d.s.silent("roulette_text", a.s)).toBe(true);
    closeSockets(a, b, c, d);
  });

  test("refuses empty, whitespace-only and over-500-character text, and text to anyone but the current partner", async () => {
    const a = await player();
    const b = await player();
    const outsider = await player();
    const id = await pairUp(a, b);
    expect((await a.s.ask("roulette_text", { partnerId: id, text: "" })).error?.code).toBe("validation");
    expect((await a.s.ask("roulette_text", { partnerId: id, text: " \n\t " })).error?.code).toBe("validation");
    expect((await a.s.ask("roulette_text", { partnerId: id, text: "x".repeat(501) })).error?.code).toBe("validation");
    expect((await a.s.ask("roulette_text", { partnerId: id, text: ` ${"x".repeat(500)} ` })).data.text).toHaveLength(500);
    await b.s.next("roulette_text");
    expect((await a.s.ask("roulette_text", { partnerId: "not-the-pairing", text: "hi" })).error?.code).toBe("not_paired");
    expect((await outsider.s.ask("roulette_text", { partnerId: id, text: "hi" })).error?.code).toBe("not_paired");
    a.s.send("roulette_next", { userId: a.user.id });
    await b.s.next("roulette_partner_next");
    // The session is over: the old id reaches nobody.
    expect((await b.s.ask("roulette_text", { partnerId: id, text: "still there?" })).error?.code).toBe("not_paired");
    expect(await a.s.silent("roulette_text", b.s, outsider.s)).toBe(true);
    closeSockets(a, b, outsider);
  });
  test("text counts against the socket's event limit: past it, rate_limited and nothing relayed", async () => {
    const a = await player();
    const b = await player();
    const id = await pairUp(a, b);
    const answers = await Promise.all(Array.from({ length: 60 }, (_, i) => a.s.ask("roulette_text", { partnerId: id, text: `spam ${i}` })));
    const refused = answers.filter((f) => f.error?.code === "rate_limited").length;
    expect(refused).toBeGreaterThan(0);
    await settled(b.s);
    const relayed = b.heard.filter((raw) => raw.includes('"roulette_text"')).length;
    expect(relayed).toBe(60 - refused);
    closeSockets(a, b);
  });
});

describe("keep in touch", () => {
  test("when both press it, each gets the other's public user", async () => {
    const a = await player({ name: "Kit A" });
    const b = await player({ name: "Kit B" });
    const id = await pairUp(a, b);
    expect((await a.s.ask("roulette_keep_in_touch", { partnerId: id })).data).toEqual({});
    expect(await b.s.silent("roulette_contact", a.s)).toBe(true);
    await b.s.ask("roulette_keep_in_touch", { partnerId: id });
    const toA = await a.s.next("roulette_contact");
    const toB = await b.s.next("roulette_contact");
    expect(toA.data.user).toMatchObject({ id: b.user.id, username: b.user.username, name: "Kit B" });
    expect(toB.data.user).toMatchObject({ id: a.user.id, username: a.user.username, name: "Kit A" });
    expect(toA.data.user.email).toBeUndefined();
    closeSockets(a, b);
  });

  test("one side's press is never revealed, not even after the session ends", async () => {
    const a = await player();
    const b = await player();
    const id = await pairUp(a, b);
    await a.s.ask("roulette_keep_in_touch", { partnerId: id });
    await a.s.ask("roulette_keep_in_touch", { partnerId: id });
    b.s.send("roulette_next", { userId: b.user.id });
    await a.s.next("roulette_partner_next");
    // Pressing after the end reaches nothing: the pairing is gone.
    expect((await b.s.ask("roulette_keep_in_touch", { partnerId: id })).error?.code).toBe("not_paired");
    expect(await a.s.silent("roulette_contact", b.s)).toBe(true);
    expect(await b.s.silent("roulette_contact")).toBe(true);
    expect([...a.heard, ...b.heard].some((raw) => raw.includes("keep"))).toBe(false);
    closeSockets(a, b);
  });
});

describe("who never meets", () => {
  test("two users with a block between them are never paired, whoever blocked", async () => {
    const a = await player();
    const b = await player();
    await t.ctx.blocks.add(b.user.id, a.user.id, Date.now());
    await rouletteSearch(a.s, a.user.id);
    expect((await rouletteSearch(b.s, b.user.id)).data.status).toBe("searching");
    const c = await player();
    expect((await rouletteSearch(c.s, c.user.id)).data.status).toBe("paired");
    closeSockets(a, b, c);
  });

  test("two users are never paired again after one reported the other, even with nobody else waiting", async () => {
    const a = await player();
    const b = await player();
    const id = await pairUp(a, b);
    const r = await t.call("POST", "/api/reports", { token: b.token, json: { rouletteId: id, context: "roulette", reason: "harassment" } });
    expect(r.status).toBe(201);
    await a.s.next("roulette_partner_next");
    await rouletteSearch(a.s, a.user.id);
    expect((await rouletteSearch(b.s, b.user.id)).data.status).toBe("searching");
    // Later, too.
    await clockMovesOn();
    await rouletteSearch(a.s, a.user.id);
    expect((await rouletteSearch(b.s, b.user.id)).data.status).toBe("searching");
    closeSockets(a, b);
  });

  test("a report made from a profile keeps the two apart in roulette too", async () => {
    const a = await player();
    const b = await player();
    const r = await t.call("POST", "/api/reports", { token: a.token, json: { reportedUserId: b.user.id, context: "profile", reason: "spam" } });
    expect(r.status).toBe(201);
    await rouletteSearch(a.s, a.user.id);
    expect((await rouletteSearch(b.s, b.user.id)).data.status).toBe("searching");
    closeSockets(a, b);
  });

  test("an account that has not confirmed being 18 or older is refused with adult_confirmation_required", async () => {
    const a = await player();
    await transaction(t.ctx.db, (tx) => tx.update(users).set({ adultConfirmedAt: null }).where(eq(users.id, a.user.id)));
    const refused = await rouletteSearch(a.s, a.user.id);
    expect(refused.error).toEqual({ code: "adult_confirmation_required", message: expect.any(String) });
    expect(t.ctx.roulette.isWaiting(a.user.id)).toBe(false);
    expect((await t.call("POST", "/api/users/confirm-adult", { token: a.token, json: {} })).status).toBe(200);
    expect((await rouletteSearch(a.s, a.user.id)).data.status).toBe("searching");
    closeSockets(a);
  });

  test("a suspended user is refused with suspended and a message that says why", async () => {
    const a = await player();
    await transaction(t.ctx.db, (tx) => tx.update(users).set({ rouletteSuspendedAt: Date.now() }).where(eq(users.id, a.user.id)));
    const refused = await rouletteSearch(a.s, a.user.id);
    expect(refused.error).toEqual({ code: "suspended", message: "You can't use Video Roulette until a moderator reviews reports about you" });
    expect(t.ctx.roulette.isWaiting(a.user.id)).toBe(false);
    closeSockets(a);
  });
});
