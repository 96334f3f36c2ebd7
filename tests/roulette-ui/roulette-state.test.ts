import { describe, expect, test } from "bun:test";
import {
  asCandidate,
  asDescription,
  buttonsFor,
  flagOf,
  initialRouletteState,
  rouletteReducer,
  socketLost,
  statusText,
  type RouletteAction,
  type RouletteState,
} from "../../islands/roulette/roulette-state.ts";
import { partner } from "./fakes.ts";

const zoe = partner("pair-9");
const run = (...actions: RouletteAction[]): RouletteState => actions.reduce(rouletteReducer, initialRouletteState());

describe("roulette state", () => {
  test("the status lines of the spec", () => {
    expect(statusText(run())).toBe('Click "Start" to begin video chat');
    expect(statusText(run({ type: "searching" }))).toBe("Looking for someone to chat with...");
    expect(statusText(run({ type: "searching" }, { type: "partner_found", partner: zoe }))).toBe("Connecting...");
  });

  test("the buttons of each status", () => {
    expect(buttonsFor("disconnected")).toEqual(["start"]);
    expect(buttonsFor("searching")).toEqual(["stop"]);
    expect(buttonsFor("connecting")).toEqual(["stop"]);
    expect(buttonsFor("connected")).toEqual(["next", "stop"]);
  });

  test("searching turns auto-reconnect on; losing the partner then goes back to searching", () => {
    const live = run({ type: "searching" }, { type: "partner_found", partner: zoe }, { type: "connected" });
    expect([live.status, live.autoReconnect]).toEqual(["connected", true]);
    expect(rouletteReducer(live, { type: "partner_lost" })).toMatchObject({ status: "searching", partner: null });
  });

  test("without auto-reconnect, losing the partner disconnects", () => {
    const state = { ...run({ type: "searching" }, { type: "partner_found", partner: zoe }), autoReconnect: false };
    expect(rouletteReducer(state, { type: "partner_lost" }).status).toBe("disconnected");
  });

  test("Stop turns auto-reconnect off; a late partner is ignored", () => {
    const stopped = run({ type: "searching" }, { type: "stopped" });
    expect([stopped.status, stopped.autoReconnect]).toEqual(["disconnected", false]);
    expect(rouletteReducer(stopped, { type: "partner_found", partner: zoe })).toBe(stopped);
  });

  test("connected needs a partner first", () => {
    expect(run({ type: "searching" }, { type: "connected" }).status).toBe("searching");
  });

  test("an error disconnects and keeps its text until the next Start", () => {
    const failed = run({ type: "searching" }, { type: "error", text: "Connection lost. Please try again." });
    expect([failed.status, failed.error]).toEqual(["disconnected", "Connection lost. Please try again."]);
    expect(rouletteReducer(failed, { type: "starting" }).error).toBeNull();
  });
});

test("only a socket going down counts as lost, not one coming up", () => {
  expect(["reconnecting", "failed", "closed", "unauthorized"].map(socketLost)).toEqual([true, true, true, true]);
  expect(["connecting", "connected", "idle"].map(socketLost)).toEqual([false, false, false]);
});

describe("relayed signals", () => {
  test("only well-formed offers, answers and candidates reach WebRTC", () => {
    expect(asDescription({ type: "offer", sdp: "v=0" }, "offer")).toEqual({ type: "offer", sdp: "v=0" });
    expect(asDescription({ type: "answer", sdp: "v=0" }, "offer")).toBeNull();
    expect(asDescription({ type: "offer" }, "offer")).toBeNull();
    expect(asDescription("offer", "offer")).toBeNull();
    expect(asCandidate({ candidate: "c", sdpMid: "0", sdpMLineIndex: 0 })).toEqual({ candidate: "c", sdpMid: "0", sdpMLineIndex: 0 });
    expect(asCandidate({ candidate: 5 })).toBeNull();
    expect(asCandidate(null)).toBeNull();
  });

  test("country flags", () => {
    expect(flagOf("de")).toBe("🇩🇪");
    expect(flagOf(null)).toBe("");
    expect(flagOf("any")).toBe("");
  });
});
