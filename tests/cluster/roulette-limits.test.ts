// Roulette's places and interests across instances (src/roulette/cluster.ts): the waiting caps per
// network count the searches of every instance (the matchmaker holds them all), and a wait for a
// shared interest ends on the matchmaker's timer with a pairing announced on both instances.
import { beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { clusterRoulette as roulette, matchmakerChosen, twoInstancesForFile } from "../support/two-instances.ts";
import { until } from "../support/until.ts";
import { onlyFrom, type RouletteFilters, rouletteSearch } from "../support/roulette.ts";

setDefaultTimeout(30_000);

// Every test socket comes from 127.0.0.1: two places in the line for that network, over both instances.
const ENV = { SIGNUP_RATE_LIMIT: "1000", ROULETTE_WAITING_PER_ADDRESS: "2", ROULETTE_INTEREST_WAIT_SECONDS: "1" };

const { a, b, urlB, socket, player } = twoInstancesForFile(ENV);
beforeAll(() => matchmakerChosen(a, b));


describe("roulette limits and interests across instances", () => {
  test("the places per network count the searches waiting on every instance", async () => {
    const ann = await player(a, { country_code: "FR" });
    const bob = await player(b, { country_code: "IT" });
    const cleo = await player(a, { country_code: "ES" });
    // Each waits for a country nobody here is from: two places taken, one on each instance.
    expect((await rouletteSearch(ann.s, ann.user.id, onlyFrom("PT"))).data.status).toBe("searching");
    expect((await rouletteSearch(bob.s, bob.user.id, onlyFrom("PT"))).data.status).toBe("searching");
    const refused = await rouletteSearch(cleo.s, cleo.user.id, onlyFrom("PT"));
    expect(refused.error?.code).toBe("rate_limited");
    expect(refused.error?.message).toContain("network");
    expect(a.ctx.roulette.isWaiting(cleo.user.id)).toBe(false);
    // A repeated search keeps its own place: it never counts against itself.
    expect((await rouletteSearch(bob.s, bob.user.id, onlyFrom("NL"))).data.status).toBe("searching");
    // One leaves on B: a place comes free for Cleo on A.
    bob.s.send("roulette_stop_search", { userId: bob.user.id });
    await until(() => (roulette(a).matchmakerQueue ?? roulette(b).matchmakerQueue)!.isWaiting(bob.user.id) === false, "Bob's place is free");
    expect((await rouletteSearch(cleo.s, cleo.user.id, onlyFrom("PT"))).data.status).toBe("searching");
    for (const p of [ann, cleo]) p.s.send("roulette_stop_search", { userId: p.user.id });
    await until(() => (roulette(a).matchmakerQueue ?? roulette(b).matchmakerQueue)!.waitingCount === 0, "nobody waits");
  });

  test("a shared interest pairs at once across instances, and says which", async () => {
    const ann = await player(a, { country_code: "BE" });
    const bob = await player(b, { country_code: "BE" });
    expect((await rouletteSearch(ann.s, ann.user.id, onlyFrom("BE", { interests: ["chess", "go"] }))).data.status).toBe("searching");
    expect((await rouletteSearch(bob.s, bob.user.id, onlyFrom("BE", { interests: ["go"] }))).data.status).toBe("paired");
    expect((await ann.s.next("roulette_partner_found")).data.partner.sharedInterests).toEqual(["go"]);
    expect((await bob.s.next("roulette_partner_found")).data.partner.sharedInterests).toEqual(["go"]);
    ann.s.send("roulette_stop_search", { userId: ann.user.id });
    await bob.s.next("roulette_partner_disconnected");
  });

  test("a wait for a shared interest ends on the matchmaker's timer, and both instances hear the pairing", async () => {
    const ann = await player(a, { country_code: "AT" });
    const bob = await player(b, { country_code: "AT" });
    expect((await rouletteSearch(ann.s, ann.user.id, onlyFrom("AT", { interests: ["knitting"] }))).data.status).toBe("searching");
    // Bob has no interests: he does not take Ann while she waits for someone who shares hers.
    expect((await rouletteSearch(bob.s, bob.user.id, onlyFrom("AT", { interests: [] }))).data.status).toBe("searching");
    const started = Date.now();
    const fa = await ann.s.next("roulette_partner_found", 5_000);
    const fb = await bob.s.next("roulette_partner_found", 5_000);
    expect(Date.now() - started).toBeGreaterThan(300);
    expect(fa.data.partner.id).toBe(fb.data.partner.id);
    expect(fa.data.shouldCreateOffer).toBe(true);
    ann.s.send("roulette_next", { userId: ann.user.id });
    await bob.s.next("roulette_partner_next");
  });

  test("an instance the matchmaker took for dead (an outage) sends its waiting searches again when it is heard", async () => {
    const [leader, other] = roulette(a).leading ? [a, b] : [b, a];
    const ann = await player(other, { country_code: "CH" });
    const bob = await player(leader, { country_code: "CH" });
    expect((await rouletteSearch(ann.s, ann.user.id, onlyFrom("CH"))).data.status).toBe("searching");
    const queue = roulette(leader).matchmakerQueue!;
    // As after five silent seconds: the matchmaker drops the other instance's people.
    (roulette(leader) as unknown as { dead(instance: string): void }).dead(other.ctx.hub.instanceId);
    expect(queue.isWaiting(ann.user.id)).toBe(false);
    // Its next beat is heard: asked again, it sends Ann's search, which takes its place back.
    await until(() => queue.isWaiting(ann.user.id), "Ann waits at the matchmaker again");
    expect(other.ctx.roulette.isWaiting(ann.user.id)).toBe(true);
    expect((await rouletteSearch(bob.s, bob.user.id, onlyFrom("CH"))).data.status).toBe("paired");
    expect((await ann.s.next("roulette_partner_found")).data.partner.country_code).toBe("CH");
    bob.s.send("roulette_stop_search", { userId: bob.user.id });
    await ann.s.next("roulette_partner_disconnected");
  });

  test("a search from a second tab on another instance replaces the first; the first tab closing leaves it alone", async () => {
    const ann = await player(a, { country_code: "DK" });
    const annOnB = await socket(urlB, ann.token);
    const bob = await player(a, { country_code: "DK" });
    expect((await rouletteSearch(ann.s, ann.user.id, onlyFrom("DK"))).data.status).toBe("searching");
    expect((await rouletteSearch(annOnB, ann.user.id, onlyFrom("DK"))).data.status).toBe("searching");
    ann.s.close();
    await until(() => a.ctx.hub.socketCount(ann.user.id) === 0, "the first tab is closed");
    await a.ctx.ports.settled();
    expect((await rouletteSearch(bob.s, bob.user.id, onlyFrom("DK"))).data.status).toBe("paired");
    expect((await annOnB.next("roulette_partner_found")).data.partner.country_code).toBe("DK");
    bob.s.send("roulette_stop_search", { userId: bob.user.id });
    await annOnB.next("roulette_partner_disconnected");
  });
});
