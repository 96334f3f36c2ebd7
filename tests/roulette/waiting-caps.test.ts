// Places in the roulette line per client network and per device (issue 18, item 9): one address
// with fifty guest sockets may not fill the line with its own accounts. Real server, addresses
// given by X-Forwarded-For (TRUST_PROXY), devices by the `did` cookie or the session's device.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { createGuest } from "../support/app.ts";
import { listeningApp } from "../support/listening.ts";
import { connect, type TestSocket } from "../support/ws.ts";
import { until } from "../support/until.ts";
import { rouletteSearch } from "../support/roulette.ts";

setDefaultTimeout(60_000);

const t = listeningApp({ SIGNUP_RATE_LIMIT: "10000", TRUST_PROXY: "true" });

const WANTS_WOMEN = { gender: "female", country: "any" };
const ANY = { gender: "any", country: "any" };

interface Player {
  id: number;
  token: string;
  s: TestSocket;
}

/** A guest made with `cookie` (a device), its socket opened from `address` (and `cookie`, when given). */
async function guest(gender: "male" | "female", address: string, options: { cookie?: string; socketCookie?: boolean } = {}): Promise<Player> {
  const headers: Record<string, string> = options.cookie ? { cookie: options.cookie } : {};
  const { token, user } = await createGuest(t, gender, headers);
  const socketHeaders: Record<string, string> = { "x-forwarded-for": address };
  if (options.cookie && options.socketCookie !== false) socketHeaders.cookie = options.cookie;
  return { id: user.id, token, s: await connect(t.wsUrl, token, socketHeaders) };
}

const device = (n: number) => `did=${String(n).padStart(32, "d")}`;

describe("the waiting cap per client address", () => {
  test("an address's 49 searches for women hold 3 places: the rest are refused with rate_limited, and a woman's searches mostly meet other people", async () => {
    const attacker: Player[] = [];
    for (let i = 0; i < 50; i++) attacker.push(await guest("male", "203.0.113.7"));
    const answers = [];
    for (const p of attacker.slice(0, 49)) answers.push(await rouletteSearch(p.s, p.id, WANTS_WOMEN));
    const waiting = answers.filter((a) => a.data?.status === "searching");
    const refused = answers.filter((a) => a.error);
    expect(waiting.length).toBe(3);
    expect(refused.length).toBe(46);
    expect(refused[0]!.error).toEqual({
      code: "rate_limited",
      message: "Too many people on your network are waiting for a partner right now (at most 3 at once). Try again in a moment.",
    });
    expect(t.ctx.roulette.waitingCount).toBe(3);

    // Five men from five other addresses look for women too, after the attack began.
    const others: Player[] = [];
    for (let i = 1; i <= 5; i++) {
      const p = await guest("male", `198.51.100.${i}`);
      expect((await rouletteSearch(p.s, p.id, WANTS_WOMEN)).data).toEqual({ status: "searching" });
      others.push(p);
    }

    // The woman searches and presses Next eight times; whoever she leaves searches again at once,
    // as both the attacker and real people would.
    const victim = await guest("female", "192.0.2.50");
    const met: ("attacker" | "other")[] = [];
    const attackerIds = new Set(attacker.map((p) => p.id));
    const everyone = [...attacker, ...others];
    for (let round = 0; round < 8; round++) {
      expect((await rouletteSearch(victim.s, victim.id)).data).toEqual({ status: "paired" });
      await victim.s.next("roulette_partner_found");
      const partnerId = t.ctx.roulette.partnerOf(victim.id)!;
      met.push(attackerIds.has(partnerId) ? "attacker" : "other");
      const partner = everyone.find((p) => p.id === partnerId)!;
      await partner.s.next("roulette_partner_found");
      await victim.s.ask("roulette_next", { userId: victim.id });
      await partner.s.next("roulette_partner_next");
      expect((await rouletteSearch(partner.s, partner.id, WANTS_WOMEN)).data).toEqual({ status: "searching" });
    }
    // Before the cap, all eight were the attacker's (49 places ahead of everyone else).
    expect(met.filter((m) => m === "attacker").length).toBeLessThanOrEqual(3);
    expect(met.filter((m) => m === "other").length).toBeGreaterThanOrEqual(5);
    for (const p of [...everyone, victim]) p.s.close();
  });

  test("a search that finds a partner at once is never refused, and a refused search changes nothing", async () => {
    const crowd: Player[] = [];
    for (let i = 0; i < 4; i++) crowd.push(await guest("male", "203.0.113.20"));
    for (const p of crowd.slice(0, 3)) expect((await rouletteSearch(p.s, p.id, WANTS_WOMEN)).data.status).toBe("searching");
    expect((await rouletteSearch(crowd[3]!.s, crowd[3]!.id, { gender: "male", country: "any" })).error?.code).toBe("rate_limited");
    // A woman elsewhere waits for a woman: nobody suits her, so she waits.
    const woman = await guest("female", "198.51.100.20");
    expect((await rouletteSearch(woman.s, woman.id, WANTS_WOMEN)).data.status).toBe("searching");
    const before = t.ctx.roulette.waitingCount;
    // The fourth man of the full network is refused, not queued...
    expect((await rouletteSearch(crowd[3]!.s, crowd[3]!.id, WANTS_WOMEN)).error?.code).toBe("rate_limited");
    expect(t.ctx.roulette.waitingCount).toBe(before);
    // ...but a person from that network whom a waiting partner suits is paired at once.
    const neighbour = await guest("female", "203.0.113.20");
    expect((await rouletteSearch(neighbour.s, neighbour.id, ANY)).data.status).toBe("paired");
    for (const p of [...crowd, woman, neighbour]) p.s.close();
  });
});

describe("the waiting cap per device", () => {
  test("a second account of one browser (its did cookie) cannot wait beside the first; searching again with new filters can", async () => {
    const a = await guest("male", "198.51.100.30", { cookie: device(1) });
    const b = await guest("male", "198.51.100.31", { cookie: device(1) });
    expect((await rouletteSearch(a.s, a.id, WANTS_WOMEN)).data.status).toBe("searching");
    expect((await rouletteSearch(a.s, a.id, { gender: "female", country: "DE" })).data.status).toBe("searching");
    const refused = await rouletteSearch(b.s, b.id, WANTS_WOMEN);
    expect(refused.error).toEqual({ code: "rate_limited", message: "Another account on this device is already searching (at most 1 at once). Try again in a moment." });
    a.s.close();
    b.s.close();
  });

  test("a socket that sends no cookie is counted on the device its session began on", async () => {
    const a = await guest("male", "198.51.100.40", { cookie: device(2), socketCookie: false });
    const b = await guest("male", "198.51.100.41", { cookie: device(2), socketCookie: false });
    expect((await rouletteSearch(a.s, a.id, WANTS_WOMEN)).data.status).toBe("searching");
    expect((await rouletteSearch(b.s, b.id, WANTS_WOMEN)).error?.code).toBe("rate_limited");
    a.s.close();
    b.s.close();
  });
});

describe("places are given back", () => {
  test("stopping, being paired and closing the socket each free a place, and nothing is held once nobody waits", async () => {
    const net = "203.0.113.60";
    const [a, b, c, d, e] = [await guest("male", net), await guest("male", net), await guest("male", net), await guest("male", net), await guest("male", net)];
    for (const p of [a!, b!, c!]) expect((await rouletteSearch(p.s, p.id, WANTS_WOMEN)).data.status).toBe("searching");
    expect((await rouletteSearch(d!.s, d!.id, WANTS_WOMEN)).error?.code).toBe("rate_limited");

    // Stop.
    await a!.s.ask("roulette_stop_search", { userId: a!.id });
    expect((await rouletteSearch(d!.s, d!.id, WANTS_WOMEN)).data.status).toBe("searching");
    expect((await rouletteSearch(e!.s, e!.id, WANTS_WOMEN)).error?.code).toBe("rate_limited");

    // Paired: a woman from elsewhere takes the longest-waiting of them (b).
    const woman = await guest("female", "198.51.100.60");
    expect((await rouletteSearch(woman.s, woman.id, ANY)).data.status).toBe("paired");
    expect(t.ctx.roulette.partnerOf(woman.id)).toBe(b!.id);
    expect((await rouletteSearch(e!.s, e!.id, WANTS_WOMEN)).data.status).toBe("searching");
    expect((await rouletteSearch(a!.s, a!.id, WANTS_WOMEN)).error?.code).toBe("rate_limited");

    // Disconnect.
    c!.s.close();
    await c!.s.closed;
    // The server frees c's place when it handles the close: then a's search is taken.
    await until(() => !t.ctx.roulette.isWaiting(c!.id), "the server handling c's close");
    const answer = await rouletteSearch(a!.s, a!.id, WANTS_WOMEN);
    expect(answer.data?.status).toBe("searching");

    for (const p of [a!, b!, d!, e!, woman]) p.s.close();
    for (const p of [a!, b!, d!, e!, woman]) await p.s.closed;
    await until(() => t.ctx.roulette.waitingCount === 0 && t.ctx.roulette.originsHeld === 0, "the queue emptying");
    expect(t.ctx.roulette.waitingCount).toBe(0);
    expect(t.ctx.roulette.originsHeld).toBe(0);
  });
});
