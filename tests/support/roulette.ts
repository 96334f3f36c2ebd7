// Video Roulette over a real socket: a search, and two people paired.
import { expect } from "bun:test";
import type { Frame, TestSocket } from "./ws.ts";

export type RouletteFilters = { gender: string; country: string; language?: string; interests?: string[]; interestsOnly?: boolean };
export const ANYONE: RouletteFilters = { gender: "any", country: "any" };
/** Anyone from `country` (a country nobody else in the test is from keeps a search to its own people). */
export const onlyFrom = (country: string, extra: Partial<RouletteFilters> = {}): RouletteFilters => ({ gender: "any", country, ...extra });

/** Someone with an open socket: `user.id` names them in the frames they send. */
interface Searcher {
  s: TestSocket;
  user: { id: number };
}

export const rouletteSearch = (s: TestSocket, userId: number, filters: RouletteFilters = ANYONE): Promise<Frame> =>
  s.ask("roulette_search", { userId, filters });

/** `a` searches, then `b`, and the two are paired: answers the pairing id, the same on both sides. */
export async function pairUp(a: Searcher, b: Searcher): Promise<string> {
  await rouletteSearch(a.s, a.user.id);
  expect((await rouletteSearch(b.s, b.user.id)).data.status).toBe("paired");
  const fa = await a.s.next("roulette_partner_found");
  const fb = await b.s.next("roulette_partner_found");
  expect(fa.data.partner.id).toBe(fb.data.partner.id);
  return fa.data.partner.id as string;
}
