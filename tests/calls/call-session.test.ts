import { afterEach, describe, expect, jest, test } from "bun:test";
import { CALLER_GIVE_UP_MS, CallSession, NO_ANSWER_TIMEOUT_MS } from "../../islands/calls/call-session.ts";
import type { CallRequest } from "../../islands/calls/call-state.ts";
import { UNSUPPORTED_BROWSER_ALERT } from "../../islands/media/errors.ts";
import { expectLogged, failOnUnexpectedConsole } from "../islands/console.ts";
import { FakeMediaCall, FakePeer, FakeSocket, FakeTones, fakeStream } from "./fakes.ts";

const toCaller: CallRequest = { role: "caller", contact: { id: 2, name: "Bob" } };
const toReceiver: CallRequest = { role: "receiver", contact: { id: 1, name: "Alice" }, callerPeerId: "peer-alice" };

function setup(request: CallRequest, getUserMedia?: ((c: MediaStreamConstraints) => Promise<MediaStream>) | null) {
  const socket = new FakeSocket();
  const peer = new FakePeer();
  const tones = new FakeTones();
  const local = fakeStream("local");
  const alerts: string[] = [];
  const closes: (string | null)[] = [];
  const asked: MediaStreamConstraints[] = [];
  let reloads = 0;
  const session = new CallSession(request, {
    socket,
    createPeer: async () => peer,
    getUserMedia:
      getUserMedia === null
        ? null
        : (getUserMedia ??
          (async (c) => {
            asked.push(c);
            return local.stream;
          })),
    tones,
    alert: (text) => alerts.push(text),
    reload: () => reloads++,
    onClose: (notice) => closes.push(notice),
  });
  return { session, socket, peer, tones, local, alerts, closes, asked, reloads: () => reloads };
}

/** A caller whose call is ringing at Bob. */
async function ringingCaller() {
  const t = setup(toCaller);
  await t.session.start();
  t.peer.open("peer-alice");
  return t;
}

/** A receiver whose phone is ringing. */
async function ringingReceiver() {
  const t = setup(toReceiver);
  await t.session.start();
  t.peer.open("peer-bob");
  return t;
}

afterEach(() => jest.useRealTimers());
failOnUnexpectedConsole();

// The session logs the failures these tests provoke on purpose.

describe("an outgoing call", () => {
  test("shows camera loading until both the camera and the peer id are ready, then calls once", async () => {
    const t = setup(toCaller);
    expect(t.session.getState().phase).toBe("preparing");
    await t.session.start();
    expect(t.session.getState().mediaReady).toBe(true);
    expect(t.socket.eventsNamed("call_user")).toEqual([]);
    t.peer.open("peer-alice");
    expect(t.session.getState().phase).toBe("ringing");
    expect(t.socket.eventsNamed("call_user")).toEqual([{ receiverId: 2, callerPeerId: "peer-alice" }]);
    expect(t.tones.log).toContain("play:outgoing");
    // A reconnect of the signalling socket opens the peer again: no second call_user.
    t.peer.open("peer-alice");
    expect(t.socket.eventsNamed("call_user")).toHaveLength(1);
  });

  test("asks for the camera with the spec's constraints", async () => {
    const t = setup(toCaller);
    await t.session.start();
    expect(t.asked[0]?.video).toMatchObject({ width: { ideal: 1280, max: 1920 }, frameRate: { ideal: 30, max: 60 } });
  });

  for (const [reason, text] of [
    ["offline", "Bob is offline"],
    ["busy", "Bob is busy in another call"],
    ["declined", "Bob declined the call"],
    ["no_answer", "Bob did not answer"],
  ] as const) {
    test(`ends with "${text}" when the server rejects it as ${reason}`, async () => {
      const t = await ringingCaller();
      t.socket.emit("call_rejected", { reason });
      expect(t.closes).toEqual([text]);
      expect(t.local.tracks.every((tr) => tr.readyState === "ended")).toBe(true);
      expect(t.peer.destroyed).toBe(true);
      expect(t.tones.log.at(-1)).toBe("close");
      expect(t.socket.eventsNamed("end_call")).toEqual([]);
      expect(t.socket.listeners("call_rejected")).toBe(0);
    });
  }

  test("answers only the receiver's media call, even when it arrives before call_answered", async () => {
    const t = await ringingCaller();
    const stranger = new FakeMediaCall("peer-mallory");
    const bob = new FakeMediaCall("peer-bob");
    t.peer.incoming(bob);
    expect(bob.answeredWith).toBeNull();
    t.socket.emit("call_answered", { answererPeerId: "peer-bob" });
    expect(bob.answeredWith).toBe(t.local.stream);
    expect(t.session.getState().phase).toBe("connecting");
    t.peer.incoming(stranger);
    expect(stranger.closed).toBe(true);
    expect(stranger.answeredWith).toBeNull();
  });

  test("Cancel stops the tone, the camera and the peer and tells the receiver", async () => {
    const t = await ringingCaller();
    t.session.hangUp();
    expect(t.socket.eventsNamed("end_call")).toEqual([{ receiverId: 2 }]);
    expect(t.local.tracks.map((tr) => tr.readyState)).toEqual(["ended", "ended"]);
    expect(t.peer.destroyed).toBe(true);
    expect(t.tones.log.slice(-2)).toEqual(["stop", "final:ended"]);
    expect(t.closes).toEqual([null]);
  });

  test("leaves the minute without an answer to the server, and gives up by itself only if the server stays silent", async () => {
    jest.useFakeTimers();
    const t = await ringingCaller();
    jest.advanceTimersByTime(NO_ANSWER_TIMEOUT_MS);
    expect(t.closes).toEqual([]);
    jest.advanceTimersByTime(CALLER_GIVE_UP_MS - NO_ANSWER_TIMEOUT_MS);
    expect(t.closes).toEqual(["Bob did not answer"]);
    expect(t.socket.eventsNamed("end_call")).toHaveLength(1);
  });

  test("a call the server refuses (adult confirmation missing) ends with the server's text", async () => {
    const t = await ringingCaller();
    const message = "Please confirm that you are 18 or older first";
    t.socket.emit("error", { code: "adult_confirmation_required", message, event: "call_user" });
    expect(t.closes).toEqual([message]);
    expect(t.local.tracks.every((tr) => tr.readyState === "ended")).toBe(true);
  });

  test("an error about another event does not end the call", async () => {
    const t = await ringingCaller();
    t.socket.emit("error", { code: "rate_limited", message: "Slow down", event: "typing_start" });
    expect(t.closes).toEqual([]);
  });
});

describe("an incoming call", () => {
  test("rings once the peer has its id, and never asks for the camera while ringing", async () => {
    const t = setup(toReceiver);
    await t.session.start();
    expect(t.tones.log).not.toContain("play:ringtone");
    t.peer.open("peer-bob");
    expect(t.session.getState().phase).toBe("ringing");
    expect(t.tones.log).toContain("play:ringtone");
    expect(t.asked).toEqual([]);
    expect(t.session.localStream).toBeNull();
  });

  test("Accept starts the camera (camera loading), then calls the caller back with it and answers", async () => {
    let grant: (stream: MediaStream) => void = () => {};
    let asked = 0;
    const t2 = setup(toReceiver, () => {
      asked++;
      return new Promise<MediaStream>((resolve) => (grant = resolve));
    });
    await t2.session.start();
    t2.peer.open("peer-bob");
    const accepting = t2.session.accept();
    expect(t2.tones.log.at(-1)).toBe("stop");
    expect(t2.session.getState()).toMatchObject({ accepted: true, phase: "preparing" });
    expect(asked).toBe(1);
    expect(t2.socket.eventsNamed("answer_call")).toEqual([]);
    grant(t2.local.stream);
    await accepting;
    expect(t2.session.getState().phase).toBe("connecting");
    expect(t2.peer.calls.map((c) => [c.peer, c.sentStream])).toEqual([["peer-alice", t2.local.stream]]);
    expect(t2.socket.eventsNamed("answer_call")).toEqual([{ callerId: 1, answererPeerId: "peer-bob" }]);
  });

  test("Decline never touches the camera, destroys the peer and rejects", async () => {
    const t = await ringingReceiver();
    t.session.decline();
    expect(t.socket.eventsNamed("reject_call")).toEqual([{ callerId: 1 }]);
    expect(t.asked).toEqual([]);
    expect(t.peer.destroyed).toBe(true);
    expect(t.closes).toEqual([null]);
  });

  test("a caller who gives up while the camera starts leaves no camera running", async () => {
    let grant: (stream: MediaStream) => void = () => {};
    const t = setup(toReceiver, () => new Promise<MediaStream>((resolve) => (grant = resolve)));
    await t.session.start();
    t.peer.open("peer-bob");
    const accepting = t.session.accept();
    t.socket.emit("call_ended", {});
    expect(t.closes).toEqual(["Alice ended the call"]);
    grant(t.local.stream);
    await accepting;
    expect(t.local.tracks.every((tr) => tr.readyState === "ended")).toBe(true);
    expect(t.socket.eventsNamed("answer_call")).toEqual([]);
  });

  test("closes quietly when the caller gives up", async () => {
    const t = await ringingReceiver();
    t.socket.emit("call_ended", {});
    expect(t.closes).toEqual([null]);
    expect(t.socket.sent.filter((s) => s.event !== "answer_call")).toEqual([]);
  });
});

describe("a connected call", () => {
  async function connected() {
    const t = await ringingReceiver();
    await t.session.accept();
    const call = t.peer.calls[0]!;
    const remote = fakeStream("remote");
    call.emitStream(remote.stream);
    return { ...t, call, remote };
  }

  test("connects when the remote stream arrives and ignores the same stream twice", async () => {
    const t = await connected();
    expect(t.session.getState().phase).toBe("connected");
    expect(t.session.remoteStream).toBe(t.remote.stream);
    t.call.emitStream(t.remote.stream);
    expect(t.tones.log.filter((l) => l === "play:connected")).toHaveLength(1);
  });

  test("mute and camera toggles flip the first audio and video track", async () => {
    const t = await connected();
    const [audio, video] = t.local.tracks;
    t.session.toggleMute();
    expect([audio?.enabled, video?.enabled, t.session.getState().muted]).toEqual([false, true, true]);
    t.session.toggleCamera();
    expect([audio?.enabled, video?.enabled, t.session.getState().cameraOff]).toEqual([false, false, true]);
    t.session.toggleMute();
    expect(audio?.enabled).toBe(true);
  });

  test("caps the video sender 2 s after the remote stream", async () => {
    jest.useFakeTimers();
    const t = await connected();
    const applied: RTCRtpSendParameters[] = [];
    const sender = {
      track: { kind: "video" },
      getParameters: () => ({ encodings: [{}] }),
      setParameters: async (p: RTCRtpSendParameters) => void applied.push(p),
    };
    t.call.peerConnection = { getSenders: () => [sender] } as unknown as RTCPeerConnection;
    jest.advanceTimersByTime(1999);
    expect(applied).toHaveLength(0);
    jest.advanceTimersByTime(1);
    expect(applied[0]?.encodings[0]).toMatchObject({ maxBitrate: 800000, maxFramerate: 20 });
  });

  test("ends locally when the other side closes the media connection", async () => {
    const t = await connected();
    t.call.remoteClose();
    expect(t.closes).toEqual(["Alice ended the call"]);
    expect(t.socket.eventsNamed("end_call")).toEqual([{ receiverId: 1 }]);
    expect(t.local.tracks.every((tr) => tr.readyState === "ended")).toBe(true);
  });

  test("the server's call_ended plays the ended tone and closes", async () => {
    const t = await connected();
    t.socket.emit("call_ended", {});
    expect(t.tones.log.at(-1)).toBe("final:ended");
    expect(t.closes).toEqual(["Alice ended the call"]);
    expect(t.call.closed).toBe(true);
  });

  test("a failed negotiation is retried once after 3 s, then ends the call", async () => {
    jest.useFakeTimers();
    const t = await connected();
    await expectLogged("warn", "Media connection error (negotiation-failed)", () => t.call.emitError("negotiation-failed"));
    t.call.remoteClose();
    expect(t.closes).toEqual([]);
    expect(t.session.getState().notice).toBe("Reconnecting...");
    jest.advanceTimersByTime(3000);
    expect(t.peer.calls).toHaveLength(2);
    await expectLogged("warn", "Media connection error (negotiation-failed)", () => t.peer.calls[1]!.emitError("negotiation-failed"));
    expect(t.closes).toEqual(["Could not connect to Alice. Please try again."]);
  });
});

describe("connection errors", () => {
  test("peer-unavailable ends the call and reloads the page after 3 s", async () => {
    jest.useFakeTimers();
    const t = await ringingReceiver();
    await expectLogged("warn", "Call connection error (peer-unavailable)", () => t.peer.fail("peer-unavailable"));
    expect(t.closes).toHaveLength(1);
    jest.advanceTimersByTime(2999);
    expect(t.reloads()).toBe(0);
    jest.advanceTimersByTime(1);
    expect(t.reloads()).toBe(1);
  });

  for (const [type, delay] of [
    ["network", 2000],
    ["disconnected", 1000],
    ["server-error", 5000],
  ] as const) {
    test(`${type} reconnects to the signalling server after ${delay} ms`, async () => {
      jest.useFakeTimers();
      const t = await ringingCaller();
      t.peer.disconnected = true;
      await expectLogged("warn", `Call connection error (${type})`, () => t.peer.fail(type));
      jest.advanceTimersByTime(delay - 1);
      expect(t.peer.reconnects).toBe(0);
      jest.advanceTimersByTime(1);
      expect(t.peer.reconnects).toBe(1);
      expect(t.closes).toEqual([]);
    });
  }

  test("a webrtc error ends the call", async () => {
    const t = await ringingCaller();
    await expectLogged("warn", "Call connection error (webrtc)", () => t.peer.fail("webrtc"));
    expect(t.closes).toEqual(["The video connection with Bob failed."]);
    expect(t.peer.destroyed).toBe(true);
  });
});

describe("camera problems", () => {
  test("a browser without mediaDevices gets the Russian alert and the call never starts", async () => {
    const t = setup(toCaller, null);
    await t.session.start();
    expect(t.alerts).toEqual([UNSUPPORTED_BROWSER_ALERT]);
    expect(t.closes).toEqual([null]);
    expect(t.socket.sent).toEqual([]);
  });

  test("a denied camera on Accept explains how to allow it, and the receiver declines for the caller", async () => {
    const denied = Object.assign(new Error("Permission denied"), { name: "NotAllowedError" });
    const t = setup(toReceiver, async () => {
      throw denied;
    });
    await t.session.start();
    t.peer.open("peer-bob");
    expect(t.alerts).toEqual([]);
    await t.session.accept();
    expect(t.alerts[0]).toContain("refresh the page");
    expect(t.socket.eventsNamed("reject_call")).toEqual([{ callerId: 1 }]);
  });

  test("falls back to 640x480 at 15 fps when HD is refused", async () => {
    const asked: MediaStreamConstraints[] = [];
    const local = fakeStream();
    const t = setup(toCaller, async (c) => {
      asked.push(c);
      if (asked.length === 1) throw Object.assign(new Error("too much"), { name: "OverconstrainedError" });
      return local.stream;
    });
    await t.session.start();
    expect(asked[1]?.video).toMatchObject({ width: 640, height: 480, frameRate: 15 });
    expect(t.session.localStream).toBe(local.stream);
  });
});
