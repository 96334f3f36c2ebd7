// Next, then a search at once, across instances (the client's usual pair of frames, and what
// bench/load/roulette.ts does): the new search stands and pairs. Before the fix in
// src/roulette/cluster.ts `leave`, the searcher's instance still counted the pairing just left as
// running until the bus echoed its end, so the search's handler "left" it again, which evicted
// that very search: answered "searching", never paired, and the partner found for it was dropped.
import { beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { matchmakerChosen, twoInstancesForFile } from "../support/two-instances.ts";
import { rouletteSearch } from "../support/roulette.ts";

setDefaultTimeout(30_000);

const { a, b, player } = twoInstancesForFile({ PRESENCE_GRACE_SECONDS: "0", SIGNUP_RATE_LIMIT: "1000" });
beforeAll(() => matchmakerChosen(a, b));

test("a search sent right after Next, on another instance than the partner's, pairs with the next person waiting", async () => {
  const filters = { gender: "any", country: "LU" };
  const ann = await player(a, { country_code: "LU" });
  const bob = await player(b, { country_code: "LU" });
  const cid = await player(a, { country_code: "LU" });
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
