// Blocking a Video Roulette stranger (issue 18, item 1) reveals nothing to either side: the four
// attacks of the issue (presence, people lists, the strangers count as an oracle, lifting it by a
// guessed id) each fail, and the only effect is that the two are never paired again.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { loadStrangerBlocks } from "../../src/blocks/strangers.ts";
import { RouletteQueue } from "../../src/roulette/queue.ts";
import { registerUser } from "../support/app.ts";
import { closeSockets, type ConnectedUser, connectedUser, listeningApp } from "../support/listening.ts";
import { settled, type TestSocket } from "../support/ws.ts";
import { pairUp, rouletteSearch } from "../support/roulette.ts";

setDefaultTimeout(20_000);

// Presence at once (no grace), so that any presence a block caused would show without waiting.
const t = listeningApp({ SIGNUP_RATE_LIMIT: "1000", PRESENCE_GRACE_SECONDS: "0" });


/** Two connected people paired in roulette; the pairing id as each side knows it. */
async function paired() {
  const a = await connectedUser(t, { name: "Roulette Ria" });
  const b = await connectedUser(t, { name: "Roulette Rex" });
  const rouletteId = await pairUp(a, b);
  for (const p of [a, b]) p.s.frames.length = 0;
  return { a, b, rouletteId };
}

/** Every frame `s` received by its pong (after `earlier` settled) that was not taken by a wait. */
async function heard(s: TestSocket, ...earlier: TestSocket[]) {
  await settled(...earlier, s);
  return s.frames.splice(0).map((f) => f.event);
}

const ids = (list: { id: number }[]) => list.map((u) => u.id).sort((x, y) => x - y);
const people = async (p: ConnectedUser) => ids((await t.call("GET", "/api/users?limit=500", { token: p.token })).body.users);
const chats = async (p: ConnectedUser) => ids((await t.call("GET", "/api/messages/chat-users-with-messages", { token: p.token })).body.users);
const strangers = async (p: { token: string }) => (await t.call("GET", "/api/blocks", { token: p.token })).body.strangers as number;

describe("blocking a roulette stranger reveals nothing", () => {
  test("the blocked side hears only roulette_partner_disconnected, as for Stop: no user_offline naming the blocker", async () => {
    const { a, b, rouletteId } = await paired();
    const r = await t.call("POST", "/api/blocks", { token: a.token, json: { rouletteId } });
    expect(r.status).toBe(201);
    expect(r.body.block.user).toBeNull();
    await b.s.next("roulette_partner_disconnected");
    expect(await heard(b.s)).toEqual([]);
    // The blocker's tabs are not handed the stranger's id either.
    expect(await heard(a.s)).toEqual([]);
    expect(t.ctx.roulette.partnerOf(a.user.id)).toBeUndefined();

    // What a plain Stop looks like to the other side, for comparison: the same one frame.
    const again = await paired();
    again.a.s.send("roulette_stop_search", { userId: again.a.user.id });
    await again.b.s.next("roulette_partner_disconnected");
    expect(await heard(again.b.s, again.a.s)).toEqual([]);
    closeSockets(a, b, again.a, again.b);
  });

  test("neither person's people list, chat lists or profile answers change", async () => {
    const { a, b, rouletteId } = await paired();
    const before = { a: await people(a), b: await people(b), aChats: await chats(a), bChats: await chats(b) };
    expect(before.a).toContain(b.user.id);
    await t.call("POST", "/api/blocks", { token: a.token, json: { rouletteId } });
    expect({ a: await people(a), b: await people(b), aChats: await chats(a), bChats: await chats(b) }).toEqual(before);
    expect((await t.call("GET", `/api/users/${a.user.id}`, { token: b.token })).status).toBe(200);
    // Messages are not refused either: a refusal would name the person behind the pairing.
    expect((await b.s.ask("send_message", { receiverId: a.user.id, content: "hello?" })).data?.message.content).toBe("hello?");
    closeSockets(a, b);
  });

  test("the strangers count does not confirm a guess: blocking the right person by id leaves it as it was", async () => {
    const { a, b, rouletteId } = await paired();
    await t.call("POST", "/api/blocks", { token: a.token, json: { rouletteId } });
    expect(await strangers(a)).toBe(1);
    const wrong = await registerUser(t);
    const guesses = [];
    for (const candidate of [wrong.user.id, b.user.id]) {
      const r = await t.call("POST", "/api/blocks", { token: a.token, json: { userId: candidate } });
      guesses.push({ status: r.status, count: await strangers(a) });
    }
    expect(guesses).toEqual([
      { status: 201, count: 1 },
      { status: 201, count: 1 },
    ]);
    const list = await t.call("GET", "/api/blocks", { token: a.token });
    expect(list.body.users.map((u: { id: number }) => u.id).sort()).toEqual([wrong.user.id, b.user.id].sort());
    closeSockets(a, b);
  });

  test("cannot be lifted by guessing an id: after a named block and its removal the two are still never paired", async () => {
    const { a, b, rouletteId } = await paired();
    await t.call("POST", "/api/blocks", { token: a.token, json: { rouletteId } });
    expect((await t.call("POST", "/api/blocks", { token: a.token, json: { userId: b.user.id } })).status).toBe(201);
    expect((await t.call("DELETE", `/api/blocks/${b.user.id}`, { token: a.token })).status).toBe(204);
    expect((await t.call("DELETE", `/api/blocks/${b.user.id}`, { token: a.token })).status).toBe(204);
    expect(await strangers(a)).toBe(1);
    // Alone in the queue together, and still not paired.
    expect((await rouletteSearch(a.s, a.user.id)).data).toEqual({ status: "searching" });
    expect((await rouletteSearch(b.s, b.user.id)).data).toEqual({ status: "searching" });
    for (const p of [a, b]) await p.s.ask("roulette_stop_search", { userId: p.user.id });
    closeSockets(a, b);
  });
});

describe("what a stranger block does", () => {
  test("keeps the two from being paired again, across a restart of the queue", async () => {
    const { a, b, rouletteId } = await paired();
    await t.call("POST", "/api/blocks", { token: a.token, json: { rouletteId } });
    expect((await rouletteSearch(b.s, b.user.id)).data).toEqual({ status: "searching" });
    expect((await rouletteSearch(a.s, a.user.id)).data).toEqual({ status: "searching" });
    for (const p of [a, b]) await p.s.ask("roulette_stop_search", { userId: p.user.id });
    const fresh = new RouletteQueue();
    await loadStrangerBlocks({ ...t.ctx, roulette: fresh });
    expect(fresh.keptApart(b.user.id, a.user.id)).toBe(true);
    closeSockets(a, b);
  });

  test("counts one per pairing blocked; the same pairing again answers 200 with the same body", async () => {
    const { a, b, rouletteId } = await paired();
    const first = await t.call("POST", "/api/blocks", { token: a.token, json: { rouletteId } });
    const again = await t.call("POST", "/api/blocks", { token: a.token, json: { rouletteId } });
    expect([first.status, again.status]).toEqual([201, 200]);
    expect(again.body).toEqual(first.body);
    expect(await t.call("GET", "/api/blocks", { token: a.token }).then((r) => r.body)).toEqual({ users: [], strangers: 1 });
    // The blocked side's own list knows nothing of it.
    expect(await t.call("GET", "/api/blocks", { token: b.token }).then((r) => r.body)).toEqual({ users: [], strangers: 0 });
    closeSockets(a, b);
  });

  test("only someone who took part in the pairing can block by its id", async () => {
    const { a, b, rouletteId } = await paired();
    const outsider = await registerUser(t);
    expect((await t.call("POST", "/api/blocks", { token: outsider.token, json: { rouletteId } })).status).toBe(404);
    expect(t.ctx.roulette.partnerOf(a.user.id)).toBe(b.user.id);
    closeSockets(a, b);
  });
});
