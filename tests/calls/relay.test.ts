// A call and the TURN relay, without a browser: a connection that never connects (Chromium stays
// `new` when the relay refuses the credential) ends on the failure path after the limit, and the
// connection kind comes from the connection's own statistics.
import { afterEach, describe, expect, jest, test } from "bun:test";
import { CallSession } from "../../islands/calls/call-session.ts";
import { CONNECT_TIMEOUT_MS } from "../../islands/calls/connection-kind.ts";
import { FakePeer, FakeSocket, FakeTones, fakeStream } from "./fakes.ts";
import { expectLogged, failOnUnexpectedConsole } from "../islands/console.ts";

/** Enough of an RTCPeerConnection: its state and a getStats() naming `type` as our own candidate. */
function fakeConnection(state: RTCPeerConnectionState, type = "relay") {
  const stats = new Map<string, Record<string, unknown>>([
    ["T", { id: "T", type: "transport", selectedCandidatePairId: "P" }],
    ["P", { id: "P", type: "candidate-pair", localCandidateId: "L", remoteCandidateId: "R" }],
    ["L", { id: "L", type: "local-candidate", candidateType: type }],
    ["R", { id: "R", type: "remote-candidate", candidateType: "relay" }],
  ]);
  return { connectionState: state, getStats: async () => stats, getSenders: () => [], addEventListener() {} } as unknown as RTCPeerConnection;
}

async function acceptedReceiver(connection: RTCPeerConnection) {
  const socket = new FakeSocket();
  const peer = new FakePeer();
  const closes: (string | null)[] = [];
  const session = new CallSession(
    { role: "receiver", contact: { id: 1, name: "Alice" }, callerPeerId: "peer-alice" },
    { socket, createPeer: async () => peer, getUserMedia: async () => fakeStream("local").stream, tones: new FakeTones(), alert: () => {}, reload: () => {}, onClose: (n) => closes.push(n) },
  );
  await session.start();
  peer.open("peer-bob");
  await session.accept();
  const call = peer.calls[0]!;
  call.peerConnection = connection;
  call.emitStream(fakeStream("remote").stream);
  return { session, socket, closes };
}

failOnUnexpectedConsole();
afterEach(() => jest.useRealTimers());

describe("a call through a relay", () => {
  test(`that never connects ends after ${CONNECT_TIMEOUT_MS / 1000} s with "Could not connect to Alice. Please try again."`, async () => {
    jest.useFakeTimers();
    // The media arrived (ontrack comes with the answer), but ICE never connected.
    const t = await acceptedReceiver(fakeConnection("new"));
    jest.advanceTimersByTime(CONNECT_TIMEOUT_MS - 1);
    expect(t.closes).toEqual([]);
    await expectLogged("error", `Call: no connection within ${CONNECT_TIMEOUT_MS / 1000} s`, () => jest.advanceTimersByTime(1));
    expect(t.closes).toEqual(["Could not connect to Alice. Please try again."]);
    expect(t.socket.eventsNamed("end_call")).toHaveLength(1);
  });

  test("that connected in time goes on", async () => {
    jest.useFakeTimers();
    const t = await acceptedReceiver(fakeConnection("connected"));
    jest.advanceTimersByTime(CONNECT_TIMEOUT_MS * 2);
    expect(t.closes).toEqual([]);
    expect(t.session.getState().phase).toBe("connected");
  });

  for (const [type, kind] of [["relay", "relayed"], ["host", "direct"]] as const) {
    test(`shows ${kind} when its own candidate in the selected pair is ${type}`, async () => {
      const t = await acceptedReceiver(fakeConnection("connected", type));
      const deadline = Date.now() + 3000;
      while (t.session.getState().connectionKind === null && Date.now() < deadline) await Bun.sleep(10);
      expect(t.session.getState().connectionKind).toBe(kind);
      t.session.hangUp();
    });
  }
});
