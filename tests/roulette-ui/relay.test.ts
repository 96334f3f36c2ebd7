// Video Roulette and the TURN relay, without a browser: fresh ICE settings for every partner, a
// limit for a relay that never connects (Chromium stays `new` on a refused credential), and the
// connection kind read from the connection's own statistics.
import { afterEach, describe, expect, jest, test } from "bun:test";
import { CONNECT_TIMEOUT_MS } from "../../islands/calls/connection-kind.ts";
import type { IceConfig } from "../../islands/calls/peer-config.ts";
import { fakeStream } from "../calls/fakes.ts";
import { expectLogged, failOnUnexpectedConsole } from "../islands/console.ts";
import { partner, rouletteSession, rtcFactory, tick } from "./fakes.ts";

/** More microtask turns than the session's own steps take: a fresh ICE fetch comes first. */
const settle = () => tick(10);

const turn = (n: number): IceConfig => ({ iceServers: [{ urls: "turn:127.0.0.1:3478", username: `${n}:x`, credential: `c${n}` }], iceTransportPolicy: "relay" });

/** A getStats() report whose selected pair's local candidate has `type`. */
const statsWith = (type: string) =>
  new Map<string, Record<string, unknown>>([
    ["T1", { id: "T1", type: "transport", selectedCandidatePairId: "CP1" }],
    ["CP1", { id: "CP1", type: "candidate-pair", localCandidateId: "L1", remoteCandidateId: "R1", state: "succeeded" }],
    ["L1", { id: "L1", type: "local-candidate", candidateType: type }],
    ["R1", { id: "R1", type: "remote-candidate", candidateType: "relay" }],
  ]) as unknown as RTCStatsReport;

async function searching(statsType?: string) {
  const made = rtcFactory();
  // A connection whose getStats() names `statsType` as its own candidate's type.
  const rtc = statsType ? { made: made.made, create: (...args: Parameters<typeof made.create>) => Object.assign(made.create(...args), { getStats: async () => statsWith(statsType) }) } : made;
  let fetched = 0;
  const t = rouletteSession({ rtc, deps: { freshIce: async () => turn(++fetched) } });
  await t.session.start();
  return { ...t, fetches: () => fetched };
}

failOnUnexpectedConsole();
afterEach(() => jest.useRealTimers());

describe("ICE settings", () => {
  test("are fetched afresh for every partner and used for that partner's connection", async () => {
    const t = await searching();
    t.socket.emit("roulette_partner_found", { partner: partner("pair-1"), shouldCreateOffer: true });
    await settle();
    expect(t.rtc.made[0]!.config.iceServers).toEqual(turn(1).iceServers);
    t.rtc.made[0]!.handlers.state("connected");
    t.session.next();
    t.socket.emit("roulette_partner_found", { partner: partner("pair-2"), shouldCreateOffer: true });
    await settle();
    expect(t.fetches()).toBe(2);
    expect(t.rtc.made[1]!.config).toEqual({ ...turn(2), iceCandidatePoolSize: 3 });
  });

  test("an offer and candidates that arrive while they are fetched wait for the connection", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { session, socket, rtc } = rouletteSession({ deps: { freshIce: async () => (await gate, turn(1)) } });
    await session.start();
    socket.emit("roulette_partner_found", { partner: partner("pair-1"), shouldCreateOffer: false });
    socket.emit("roulette_offer", { offer: { type: "offer", sdp: "v=0 offer" }, partnerId: "pair-1" });
    socket.emit("roulette_ice_candidate", { candidate: { candidate: "candidate:1 1 udp 1 127.0.0.1 5000 typ relay", sdpMid: "0", sdpMLineIndex: 0 }, partnerId: "pair-1" });
    await settle();
    expect(rtc.made).toHaveLength(0);
    release();
    await settle();
    expect(rtc.made[0]!.remoteDescriptions).toEqual([{ type: "offer", sdp: "v=0 offer" }]);
    expect(rtc.made[0]!.candidates).toHaveLength(1);
    expect(socket.eventsNamed("roulette_answer")).toHaveLength(1);
  });
});

describe("a relay that never connects", () => {
  test(`ends the set-up after ${CONNECT_TIMEOUT_MS / 1000} s with "Connection setup failed. Please try again."`, async () => {
    jest.useFakeTimers();
    const t = await searching();
    t.socket.emit("roulette_partner_found", { partner: partner("pair-1"), shouldCreateOffer: true });
    await settle();
    // The media may arrive before ICE connects: it does not count as connected.
    t.rtc.made[0]!.handlers.remoteStream(fakeStream("remote").stream);
    jest.advanceTimersByTime(CONNECT_TIMEOUT_MS - 1);
    expect(t.state().error).toBeNull();
    await expectLogged("error", `no connection to the partner within ${CONNECT_TIMEOUT_MS / 1000} s`, () => jest.advanceTimersByTime(1));
    expect(t.state().error).toBe("Connection setup failed. Please try again.");
    expect(t.state().status).toBe("disconnected");
    expect(t.rtc.made[0]!.closed).toBe(true);
    expect(t.socket.eventsNamed("roulette_stop_search")).toHaveLength(1);
  });

  test("does not end a connection that connected in time", async () => {
    jest.useFakeTimers();
    const t = await searching();
    t.socket.emit("roulette_partner_found", { partner: partner("pair-1"), shouldCreateOffer: true });
    await settle();
    t.rtc.made[0]!.handlers.state("connected");
    jest.advanceTimersByTime(CONNECT_TIMEOUT_MS * 2);
    expect(t.state().error).toBeNull();
    expect(t.state().status).toBe("connected");
  });
});

describe("the connection kind", () => {
  for (const [type, kind] of [["relay", "relayed"], ["host", "direct"], ["srflx", "direct"]] as const) {
    test(`is ${kind} when the selected pair's own candidate is ${type}`, async () => {
      const t = await searching(type);
      t.socket.emit("roulette_partner_found", { partner: partner("pair-1"), shouldCreateOffer: true });
      await settle();
      expect(t.session.getSnapshot().connectionKind).toBe(kind);
      t.session.stop();
      expect(t.session.getSnapshot().connectionKind ?? null).toBeNull();
    });
  }
});
