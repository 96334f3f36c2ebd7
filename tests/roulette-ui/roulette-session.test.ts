import { afterEach, describe, expect, jest, test } from "bun:test";
import { expectLogged, failOnUnexpectedConsole } from "../islands/console.ts";
import { meet, partner, rouletteSession, tick } from "./fakes.ts";

async function searching() {
  const t = rouletteSession();
  await t.session.start();
  return t;
}

const connected = async (shouldCreateOffer = true) => meet(await searching(), "pair-9", shouldCreateOffer);

afterEach(() => jest.useRealTimers());
failOnUnexpectedConsole();

// The session logs the failures these tests provoke on purpose.

describe("Start", () => {
  test("opens the camera, searches with the user id and the filters, and retries every 30 s", async () => {
    jest.useFakeTimers();
    const t = rouletteSession();
    t.session.setFilters({ gender: "female", country: "FR" });
    await t.session.start();
    expect(t.status()).toBe("searching");
    expect(t.session.getSnapshot().localStream).toBe(t.local.stream);
    expect(t.socket.eventsNamed("roulette_search")).toEqual([{ userId: 7, filters: { gender: "female", country: "FR" } }]);
    jest.advanceTimersByTime(30_000);
    expect(t.socket.eventsNamed("roulette_search")).toHaveLength(2);
    jest.advanceTimersByTime(60_000);
    expect(t.socket.eventsNamed("roulette_search")).toHaveLength(4);
  });

  test("default filters are any gender, any country and any language", async () => {
    const t = await searching();
    expect(t.socket.eventsNamed("roulette_search")[0]).toEqual({ userId: 7, filters: { gender: "any", country: "any", language: "any" } });
  });

  test("a refused camera shows the spec's message and stays disconnected", async () => {
    const t = rouletteSession({
      deps: {
        getUserMedia: async () => {
          throw Object.assign(new Error("denied"), { name: "NotAllowedError" });
        },
      },
    });
    await t.session.start();
    expect([t.status(), t.state().error]).toEqual(["disconnected", "Please allow camera and microphone access to use video chat"]);
    expect(t.socket.sent).toEqual([]);
  });

  test("a browser without media devices is told a camera is required", async () => {
    const t = rouletteSession({ deps: { getUserMedia: null } });
    await t.session.start();
    expect(t.state().error).toBe("Camera access required for video chat");
  });
});

describe("pairing", () => {
  test("the offerer creates and sends the offer, with the ICE settings", async () => {
    const t = await searching();
    t.socket.emit("roulette_partner_found", { partner: partner("pair-9"), shouldCreateOffer: true });
    expect(t.status()).toBe("connecting");
    await tick();
    const rtc = t.rtc.made[0]!;
    expect(rtc.config).toEqual({ iceServers: [], iceTransportPolicy: "relay", iceCandidatePoolSize: 3 });
    expect(rtc.streams).toEqual([t.local.stream]);
    expect(t.socket.eventsNamed("roulette_offer")).toEqual([{ offer: { type: "offer", sdp: "v=0 offer" }, partnerId: "pair-9" }]);
    rtc.handlers.candidate({ candidate: "candidate:1", sdpMid: "0", sdpMLineIndex: 0 });
    expect(t.socket.eventsNamed("roulette_ice_candidate")).toEqual([{ candidate: { candidate: "candidate:1", sdpMid: "0", sdpMLineIndex: 0 }, partnerId: "pair-9" }]);
  });

  test("the other side waits, answers the offer and takes candidates", async () => {
    const t = await searching();
    t.socket.emit("roulette_partner_found", { partner: partner("pair-9"), shouldCreateOffer: false });
    await tick();
    expect(t.socket.eventsNamed("roulette_offer")).toEqual([]);
    t.socket.emit("roulette_offer", { offer: { type: "offer", sdp: "o" }, partnerId: "pair-9" });
    await tick();
    expect(t.socket.eventsNamed("roulette_answer")).toEqual([{ answer: { type: "answer", sdp: "v=0 answer" }, partnerId: "pair-9" }]);
    t.socket.emit("roulette_ice_candidate", { candidate: { candidate: "candidate:2", sdpMid: "0", sdpMLineIndex: 0 }, partnerId: "pair-9" });
    await tick();
    expect(t.rtc.made[0]?.candidates.map((c) => c.candidate)).toEqual(["candidate:2"]);
  });

  test("remote media or a connected state shows the partner as connected", async () => {
    const t = await connected();
    expect(t.status()).toBe("connected");
    expect(t.state().partner?.name).toBe("Stranger");
    const other = await searching();
    other.socket.emit("roulette_partner_found", { partner: partner("pair-9"), shouldCreateOffer: false });
    other.rtc.made[0]?.handlers.state("connected");
    expect(other.status()).toBe("connected");
  });

  test("an offer before any connection is retried once after 1 s, then fails", async () => {
    jest.useFakeTimers();
    const t = await searching();
    t.socket.emit("roulette_offer", { offer: { type: "offer", sdp: "o" }, partnerId: "pair-9" });
    expect(t.status()).toBe("searching");
    await expectLogged("error", "Roulette: Failed to process connection offer Error: no peer connection for the offer", async () => {
      jest.advanceTimersByTime(1000);
      await tick();
    });
    expect(t.state().error).toBe("Failed to process connection offer");
    expect(t.status()).toBe("disconnected");
  });

  test("a failed offer ends with 'Failed to establish connection' and leaves the queue", async () => {
    const t = rouletteSession({ failOffer: true });
    await t.session.start();
    await expectLogged("error", "Roulette: Failed to establish connection Error: no offer", async () => {
      t.socket.emit("roulette_partner_found", { partner: partner("pair-9"), shouldCreateOffer: true });
      await tick();
    });
    expect([t.status(), t.state().error]).toEqual(["disconnected", "Failed to establish connection"]);
    expect(t.socket.eventsNamed("roulette_stop_search")).toEqual([{ userId: 7 }]);
    expect(t.rtc.made[0]?.closed).toBe(true);
  });
});

describe("leaving a partner", () => {
  test("partner disconnected, partner next, or a failed connection search again after 1 s", async () => {
    jest.useFakeTimers();
    for (const lose of [
      (t: Awaited<ReturnType<typeof connected>>) => t.socket.emit("roulette_partner_disconnected", {}),
      (t: Awaited<ReturnType<typeof connected>>) => t.socket.emit("roulette_partner_next", {}),
      (t: Awaited<ReturnType<typeof connected>>) => t.pc.handlers.state("failed"),
      (t: Awaited<ReturnType<typeof connected>>) => t.pc.handlers.state("disconnected"),
    ]) {
      const t = await connected();
      lose(t);
      expect([t.status(), t.state().partner, t.pc.closed, t.session.getSnapshot().remoteStream]).toEqual(["searching", null, true, null]);
      expect(t.socket.eventsNamed("roulette_search")).toHaveLength(1);
      jest.advanceTimersByTime(1000);
      expect(t.socket.eventsNamed("roulette_search")).toHaveLength(2);
      expect(t.local.tracks.every((tr) => tr.readyState === "live")).toBe(true);
    }
  });

  test("Next Partner closes the connection, tells the server and searches again after 1 s", async () => {
    jest.useFakeTimers();
    const t = await connected();
    t.session.next();
    expect([t.status(), t.pc.closed]).toEqual(["searching", true]);
    expect(t.socket.eventsNamed("roulette_next")).toEqual([{ userId: 7 }]);
    jest.advanceTimersByTime(999);
    expect(t.socket.eventsNamed("roulette_search")).toHaveLength(1);
    jest.advanceTimersByTime(1);
    expect(t.socket.eventsNamed("roulette_search")).toHaveLength(2);
  });

  test("Stop cancels the search, stops the camera, tells the server and turns auto-reconnect off", async () => {
    jest.useFakeTimers();
    const t = await connected();
    t.session.stop();
    expect([t.status(), t.state().partner, t.state().autoReconnect]).toEqual(["disconnected", null, false]);
    expect(t.local.tracks.every((tr) => tr.readyState === "ended")).toBe(true);
    expect(t.socket.eventsNamed("roulette_stop_search")).toEqual([{ userId: 7 }]);
    t.socket.emit("roulette_partner_disconnected", {});
    jest.advanceTimersByTime(60_000);
    expect(t.socket.eventsNamed("roulette_search")).toHaveLength(1);
  });
});

describe("the socket", () => {
  test("losing it while searching or connected says 'Connection lost. Please try again.'", async () => {
    const t = await connected();
    t.socket.setStatus("reconnecting");
    expect([t.status(), t.state().error, t.pc.closed]).toEqual(["disconnected", "Connection lost. Please try again.", true]);
    expect(t.local.tracks.every((tr) => tr.readyState === "ended")).toBe(true);
  });

  test("coming back while searching restarts the search", async () => {
    const t = await searching();
    t.socket.setStatus("connected");
    expect(t.socket.eventsNamed("roulette_search")).toHaveLength(2);
  });

  test("leaving the screen stops the camera, closes the connection, leaves the queue and stops listening", async () => {
    const t = await connected();
    t.session.dispose();
    expect(t.pc.closed).toBe(true);
    expect(t.local.tracks.every((tr) => tr.readyState === "ended")).toBe(true);
    expect(t.socket.eventsNamed("roulette_stop_search")).toEqual([{ userId: 7 }]);
    expect(t.socket.listeners("roulette_partner_found")).toBe(0);
  });

  test("leaving before Start sends nothing", () => {
    const t = rouletteSession();
    t.session.dispose();
    expect(t.socket.sent).toEqual([]);
  });
});
