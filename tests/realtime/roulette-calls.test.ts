// Issue 18, item 3: being in Video Roulette (searching or paired) is not observable from any call
// answer, event or timing. Such a person is rung silently: the caller hears "ringing" and, at the
// ring time, "no answer", exactly as from someone who lets the phone ring. Presence comes in the
// default batches (no tick falls inside a test); each test shows everyone online with one batch
// before anyone searches, as a while on the site would.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { connectedUser, listeningApp, type ConnectedUser } from "../support/listening.ts";
import { connect, DEFAULT_WAIT_MS, settled, type Frame, type TestSocket } from "../support/ws.ts";
import { pairUp, rouletteSearch } from "../support/roulette.ts";

setDefaultTimeout(20_000);

const RING_MS = 2000;
const t = listeningApp({ CALL_RING_SECONDS: String(RING_MS / 1000), PRESENCE_BATCH_SECONDS: "30:60", SIGNUP_RATE_LIMIT: "1000" });


/** Two people shown online (with everyone connected so far), then paired in roulette. */
async function paired(): Promise<{ one: ConnectedUser; other: ConnectedUser }> {
  const one = await connectedUser(t);
  const other = await connectedUser(t);
  t.ctx.hub.flushShown();
  await pairUp(one, other);
  return { one, other };
}

/** What a caller sees of a call to `receiverId` that nobody answers: the ack, then every call frame until it ends. */
async function callAndWatch(caller: TestSocket, receiverId: number): Promise<{ ack: Frame; frames: Frame[]; endedAfterMs: number }> {
  const started = Date.now();
  const ack = await caller.ask("call_user", { receiverId, callerPeerId: "peer-x" });
  const end = await caller.next("call_rejected", RING_MS + DEFAULT_WAIT_MS);
  const frames = [end, ...caller.frames.filter((f) => f.event?.startsWith("call_") || f.event === "incoming_call")];
  return { ack, frames, endedAfterMs: Date.now() - started };
}

describe("calling someone in Video Roulette", () => {
  test("calling a paired roulette user answers exactly as calling an idle present user who lets it ring", async () => {
    const idle = await connectedUser(t);
    const callerA = await connectedUser(t);
    const callerB = await connectedUser(t);
    const { one: inRoulette, other: partner } = await paired();

    const [toIdle, toRoulette] = await Promise.all([callAndWatch(callerA.s, idle.user.id), callAndWatch(callerB.s, inRoulette.user.id)]);
    expect(toRoulette.ack.data).toEqual({ status: "ringing" });
    expect(toRoulette.ack).toEqual({ ...toIdle.ack, ack: toRoulette.ack.ack });
    expect(toRoulette.frames).toEqual(toIdle.frames);
    expect(toRoulette.frames).toEqual([{ event: "call_rejected", data: { reason: "no_answer" } }]);
    expect(Math.abs(toRoulette.endedAfterMs - toIdle.endedAfterMs)).toBeLessThan(500);

    // The idle person's tab rang; the roulette tab heard nothing, and the pair goes on.
    await settled(inRoulette.s, partner.s);
    expect(idle.s.frames.some((f) => f.event === "incoming_call")).toBe(true);
    expect(inRoulette.s.frames.some((f) => f.event === "incoming_call" || f.event === "call_ended")).toBe(false);
    expect(t.ctx.roulette.partnerOf(inRoulette.user.id)).toBe(partner.user.id);
    expect(partner.s.frames.some((f) => f.event?.startsWith("roulette_partner_"))).toBe(false);
    for (const p of [idle, inRoulette, partner, callerA, callerB]) p.s.close();
  });

  test("someone still searching is rung silently too, and a second caller meanwhile hears busy, as for anyone being rung", async () => {
    const searching = await connectedUser(t);
    const caller = await connectedUser(t);
    const second = await connectedUser(t);
    t.ctx.hub.flushShown();
    expect((await rouletteSearch(searching.s, searching.user.id)).data.status).toBe("searching");
    expect((await caller.s.ask("call_user", { receiverId: searching.user.id, callerPeerId: "p1" })).data).toEqual({ status: "ringing" });
    expect((await second.s.ask("call_user", { receiverId: searching.user.id, callerPeerId: "p2" })).data).toEqual({ status: "busy" });
    expect((await caller.s.next("call_rejected", RING_MS + DEFAULT_WAIT_MS)).data).toEqual({ reason: "no_answer" });
    await settled(searching.s);
    expect(searching.s.frames.some((f) => f.event === "incoming_call")).toBe(false);
    for (const p of [searching, caller, second]) p.s.close();
  });

  test("a tab the roulette user opens while the silent ring lasts is not rung either (only a call that found no tab open is)", async () => {
    const caller = await connectedUser(t);
    const { one: inRoulette, other: partner } = await paired();
    expect((await caller.s.ask("call_user", { receiverId: inRoulette.user.id, callerPeerId: "p1" })).data).toEqual({ status: "ringing" });
    const second = await connect(t.wsUrl, inRoulette.token);
    expect((await caller.s.next("call_rejected", RING_MS + DEFAULT_WAIT_MS)).data).toEqual({ reason: "no_answer" });
    await settled(second, inRoulette.s);
    expect([...second.frames, ...inRoulette.s.frames].some((f) => f.event === "incoming_call")).toBe(false);
    expect(t.ctx.roulette.partnerOf(inRoulette.user.id)).toBe(partner.user.id);
    second.close();
    for (const p of [caller, inRoulette, partner]) p.s.close();
  });

  test("a caller hanging up a silent ring tells the roulette tab nothing, and the pair goes on", async () => {
    const caller = await connectedUser(t);
    const { one: inRoulette, other: partner } = await paired();
    expect((await caller.s.ask("call_user", { receiverId: inRoulette.user.id, callerPeerId: "p1" })).data).toEqual({ status: "ringing" });
    expect((await caller.s.ask("end_call", { receiverId: inRoulette.user.id })).data).toEqual({ ended: true });
    expect(await inRoulette.s.silent("call_ended", caller.s)).toBe(true);
    expect(inRoulette.s.frames.some((f) => f.event === "incoming_call")).toBe(false);
    expect(t.ctx.roulette.partnerOf(inRoulette.user.id)).toBe(partner.user.id);
    for (const p of [caller, inRoulette, partner]) p.s.close();
  });

  test("the partner ringing the stranger's account hears nothing when the stranger leaves: the ring ends as no answer at its time", async () => {
    const dialer = await connectedUser(t);
    const { one: victim, other: attacker } = await paired();
    expect((await dialer.s.ask("call_user", { receiverId: victim.user.id, callerPeerId: "p1" })).data).toEqual({ status: "ringing" });
    const started = Date.now();
    victim.s.close();
    await attacker.s.next("roulette_partner_disconnected");
    expect(await dialer.s.silent("call_ended", attacker.s)).toBe(true);
    expect((await dialer.s.next("call_rejected", RING_MS + DEFAULT_WAIT_MS)).data).toEqual({ reason: "no_answer" });
    expect(Date.now() - started).toBeGreaterThan(RING_MS - 300);
    attacker.s.close();
    dialer.s.close();
  });
});
