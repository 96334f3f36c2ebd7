// Next, then a search at once, across instances (the client's usual pair of frames, and what
// bench/load/roulette.ts does): the new search stands and pairs. Before the fix in
// src/roulette/cluster.ts `leave`, the searcher's instance still counted the pairing just left as
// running until the bus echoed its end, so the search's handler "left" it again, which evicted
// that very search: answered "searching", never paired, and the partner found for it was dropped.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { registerUser, type TestApp } from "../support/app.ts";
import { twoInstances, type TwoInstances } from "../support/two-instances.ts";
import { connect, type TestSocket } from "../support/ws.ts";
import { until } from "../support/until.ts";
import { rouletteSearch } from "../support/roulette.ts";
import type { ClusterRoulette } from "../../src/roulette/cluster.ts";

setDefaultTimeout(30_000);

let pair: TwoInstances;
const open: TestSocket[] = [];

beforeAll(async () => {
  pair = await twoInstances({ PRESENCE_GRACE_SECONDS: "0", SIGNUP_RATE_LIMIT: "1000" });
  const leading = () => (pair.a.ctx.roulette as ClusterRoulette).leading || (pair.b.ctx.roulette as ClusterRoulette).leading;
  await until(leading, "one instance is the matchmaker");
});

afterAll(async () => {
  for (const socket of open) socket.close();
  await pair.close();
});

async function player(app: TestApp, url: string) {
  const registered = await registerUser(app, { country_code: "LU" });
  const s = await connect(url, registered.token);
  open.push(s);
  await until(() => app.ctx.hub.socketCount(registered.user.id) === 1, "socket registered");
  await app.ctx.ports.settled();
  return { ...registered, s };
}

test("a search sent right after Next, on another instance than the partner's, pairs with the next person waiting", async () => {
  const { a, b, urlA, urlB } = pair;
  const filters = { gender: "any", country: "LU" };
  const ann = await player(a, urlA);
  const bob = await player(b, urlB);
  const cid = await player(a, urlA);
  await rouletteSearch(ann.s, ann.user.id, filters);
  expect((await rouletteSearch(bob.s, bob.user.id, filters)).data.status).toBe("paired");
  await ann.s.next("roulette_partner_found");
  const first = (await bob.s.next("roulette_partner_found")).data.partner.id;
  // Ann must not meet Bob again at once: she waits for nobody (Stop) once Bob has left her.
  expect((await rouletteSearch(cid.s, cid.user.id, filters)).data.status).toBe("searching");
  bob.s.send("roulette_next", { userId: bob.user.id });
  // No wait between the two frames.
  const answer = await rouletteSearch(bob.s, bob.user.id, filters);
  await ann.s.next("roulette_partner_next");
  ann.s.send("roulette_stop_search", { userId: ann.user.id });
  expect(answer.data.status).toBe("paired");
  const found = (await bob.s.next("roulette_partner_found")).data.partner.id;
  expect(found).not.toBe(first);
  expect((await cid.s.next("roulette_partner_found")).data.partner.id).toBe(found);
  // And it runs: Cid's line reaches Bob on the other instance.
  await cid.s.ask("roulette_text", { partnerId: found, text: "hi" });
  expect((await bob.s.next("roulette_text")).data.text).toBe("hi");
});
