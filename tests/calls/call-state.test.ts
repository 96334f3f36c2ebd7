import { describe, expect, test } from "bun:test";
import { callReducer, initialCallState, screenFor, type CallAction, type CallRequest, type CallState } from "../../islands/calls/call-state.ts";
import { peerOptions, planForCallError, planForPeerError, rejectionText, rtcConfiguration } from "../../islands/calls/peer-config.ts";

const caller: CallRequest = { role: "caller", contact: { id: 2, name: "Bob" } };
const receiver: CallRequest = { role: "receiver", contact: { id: 1, name: "Alice" }, callerPeerId: "p1" };
const run = (request: CallRequest, ...actions: CallAction[]): CallState => actions.reduce(callReducer, initialCallState(request));
const ready: CallAction[] = [{ type: "media_ready" }, { type: "peer_open", peerId: "me" }];

describe("call state", () => {
  test("stays on camera loading until the camera and the peer id are both ready, in either order", () => {
    expect(screenFor(run(caller, { type: "media_ready" }))).toBe("setup");
    expect(screenFor(run(caller, { type: "peer_open", peerId: "x" }))).toBe("setup");
    expect(screenFor(run(caller, { type: "peer_open", peerId: "x" }, { type: "media_ready" }))).toBe("outgoing");
    expect(screenFor(run(receiver, ...ready))).toBe("incoming");
  });

  test("the receiver's Accept moves to the in-call screen; the caller cannot accept", () => {
    const accepted = run(receiver, ...ready, { type: "accepted" });
    expect([accepted.accepted, accepted.phase, screenFor(accepted)]).toEqual([true, "connecting", "connected"]);
    expect(run(caller, ...ready, { type: "accepted" }).accepted).toBe(false);
  });

  test("the caller stores the answer's peer id and connects on the remote stream", () => {
    const answered = run(caller, ...ready, { type: "answered", answererPeerId: "p2" });
    expect([answered.answererPeerId, answered.phase]).toEqual(["p2", "connecting"]);
    const live = callReducer(answered, { type: "remote_stream", streamId: "s1" });
    expect([live.phase, live.remoteStreamId]).toEqual(["connected", "s1"]);
  });

  test("a remote stream before the receiver accepts, or a repeat of the same stream, changes nothing", () => {
    const ringing = run(receiver, ...ready);
    expect(callReducer(ringing, { type: "remote_stream", streamId: "s" })).toBe(ringing);
    const live = run(receiver, ...ready, { type: "accepted" }, { type: "remote_stream", streamId: "s" });
    expect(callReducer(live, { type: "remote_stream", streamId: "s" })).toBe(live);
  });

  test("toggles flip, and nothing changes after the end", () => {
    const muted = run(caller, ...ready, { type: "toggle_mute" }, { type: "toggle_camera" });
    expect([muted.muted, muted.cameraOff]).toEqual([true, true]);
    const ended = callReducer(muted, { type: "ended" });
    expect(callReducer(ended, { type: "toggle_mute" })).toBe(ended);
  });
});

describe("PeerJS configuration", () => {
  const ice = { iceServers: [{ urls: "stun:stun.example.org:3478" }], iceTransportPolicy: "relay" as const };

  test("points at /peerjs on the page's own host and port with key peerjs", () => {
    expect(peerOptions({ hostname: "chat.test", port: "5001", protocol: "http:" }, ice)).toEqual({
      host: "chat.test",
      port: 5001,
      path: "/peerjs",
      key: "peerjs",
      secure: false,
      pingInterval: 3000,
      config: { iceServers: [{ urls: "stun:stun.example.org:3478" }], iceTransportPolicy: "relay", iceCandidatePoolSize: 3 },
    });
  });

  test("uses 443 over https and 80 over http when the page names no port", () => {
    expect(peerOptions({ hostname: "a", port: "", protocol: "https:" }, ice)).toMatchObject({ port: 443, secure: true });
    expect(peerOptions({ hostname: "a", port: "", protocol: "http:" }, ice)).toMatchObject({ port: 80, secure: false });
  });

  test("an empty ICE list stays empty (no public server sneaks in)", () => {
    expect(rtcConfiguration({ iceServers: [], iceTransportPolicy: "all" }).iceServers).toEqual([]);
  });

  test("peer errors: reload after 3 s, reconnect after 2 s, 1 s or 5 s, everything else ends", () => {
    expect(planForPeerError("peer-unavailable")).toEqual({ action: "reload", afterMs: 3000 });
    expect(planForPeerError("network")).toEqual({ action: "reconnect", afterMs: 2000 });
    expect(planForPeerError("disconnected")).toEqual({ action: "reconnect", afterMs: 1000 });
    expect(planForPeerError("server-error")).toEqual({ action: "reconnect", afterMs: 5000 });
    for (const type of ["webrtc", "browser-incompatible", "invalid-key", "unavailable-id", "socket-error", "x"]) {
      expect(planForPeerError(type)).toEqual({ action: "end" });
    }
  });

  test("call errors: a failed negotiation is retried once after 3 s", () => {
    expect(planForCallError("negotiation-failed", 0)).toEqual({ action: "retry", afterMs: 3000 });
    expect(planForCallError("negotiation-failed", 1)).toEqual({ action: "end" });
    expect(planForCallError("connection-closed", 0)).toEqual({ action: "end" });
  });

  test("rejections name the person and the reason", () => {
    expect(rejectionText("offline", "Bob")).toBe("Bob is offline");
    expect(rejectionText("busy", "Bob")).toBe("Bob is busy in another call");
    expect(rejectionText("declined", "Bob")).toBe("Bob declined the call");
  });
});
