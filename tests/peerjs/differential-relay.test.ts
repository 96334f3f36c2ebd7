// Each scenario runs against the real `peer` 1.0.2 and against our /peerjs at the same time; the
// transcripts (every frame's exact text, closes and silences, run prefixes removed) must be
// equal. Each also checks the reference transcript, so that a scenario proves something.
import { describe, test } from "bun:test";
import { differential } from "./servers.ts";

const compare = differential();

const OPEN = '<- {"type":"OPEN"}';

describe("relaying, as peer 1.0.2 does it", () => {
  test("OFFER, ANSWER and CANDIDATE are relayed with the server's src and only the known fields", () =>
    compare(
      async (t) => {
        const [alice, bob] = await t.pair("alice", "bob");
        alice.send({ type: "OFFER", src: "mallory", dst: t.id("bob"), payload: { sdp: "v=0", type: "offer" }, extra: true });
        await t.frame("bob", bob);
        bob.send({ payload: { sdp: "v=0" }, dst: t.id("alice"), type: "ANSWER" });
        await t.frame("alice", alice);
        alice.send({ type: "CANDIDATE", dst: t.id("bob") });
        await t.frame("bob", bob);
      },
      [
        `alice ${OPEN}`,
        `bob ${OPEN}`,
        'bob <- {"type":"OFFER","src":"alice","dst":"bob","payload":{"sdp":"v=0","type":"offer"}}',
        'alice <- {"type":"ANSWER","src":"bob","dst":"alice","payload":{"sdp":"v=0"}}',
        'bob <- {"type":"CANDIDATE","src":"alice","dst":"bob"}',
      ],
    ));

  test("messages to an absent id wait, and follow OPEN in order when it connects", () =>
    compare(
      async (t) => {
        const alice = t.open("alice");
        await t.frame("alice", alice);
        alice.send({ type: "OFFER", dst: t.id("carol"), payload: 1 });
        alice.send({ type: "CANDIDATE", dst: t.id("carol"), payload: 2 });
        // Handled, so queued, before carol comes.
        await t.quietBeforeMarker("alice", "alice", alice);
        const carol = t.open("carol");
        for (let i = 0; i < 3; i++) await t.frame("carol", carol);
        // Delivered, not expired as well: an OFFER to nobody sent now expires after them, so its
        // EXPIRE is the first frame alice gets, with nothing before it or in the same sweep.
        alice.send({ type: "OFFER", dst: t.id("zed"), payload: 3 });
        await t.frame("alice", alice, 10_000);
        await t.quietBeforeMarker("alice", "alice", alice);
      },
      [
        `alice ${OPEN}`,
        "alice silent",
        `carol ${OPEN}`,
        'carol <- {"type":"OFFER","src":"alice","dst":"carol","payload":1}',
        'carol <- {"type":"CANDIDATE","src":"alice","dst":"carol","payload":2}',
        'alice <- {"type":"EXPIRE","src":"zed","dst":"alice"}',
        "alice silent",
      ],
    ));

  test("messages nobody came for are answered with one EXPIRE per destination, then dropped", () =>
    compare(
      async (t) => {
        const alice = t.open("alice");
        await t.frame("alice", alice);
        alice.send({ type: "OFFER", dst: t.id("dave"), payload: 1 });
        alice.send({ type: "CANDIDATE", dst: t.id("dave"), payload: 2 });
        await t.frame("alice", alice, 10_000);
        // Both messages expired in that sweep: a second EXPIRE would have come before the marker.
        await t.quietBeforeMarker("alice", "alice", alice);
        const dave = t.open("dave");
        await t.frame("dave", dave);
        await t.quietBeforeMarker("dave", "dave", dave);
      },
      [`alice ${OPEN}`, 'alice <- {"type":"EXPIRE","src":"dave","dst":"alice"}', "alice silent", `dave ${OPEN}`, "dave silent"],
    ));

  test("LEAVE is relayed to a connected peer, and neither queued nor expired for an absent one", () =>
    compare(
      async (t) => {
        const [alice, bob] = await t.pair("alice", "bob");
        alice.send({ type: "LEAVE", dst: t.id("bob") });
        await t.frame("bob", bob);
        alice.send({ type: "LEAVE", dst: t.id("erin") });
        alice.send({ type: "EXPIRE", dst: t.id("erin") });
        await t.quietBeforeMarker("alice", "alice", alice);
        // Not queued: erin, coming now, is handed nothing. Not expired either: an OFFER to nobody
        // sent after them expires after them, so its EXPIRE is the first frame alice gets.
        alice.send({ type: "OFFER", dst: t.id("zed"), payload: 1 });
        const erin = t.open("erin");
        await t.frame("erin", erin);
        await t.quietBeforeMarker("erin", "erin", erin);
        await t.frame("alice", alice, 10_000);
        await t.quietBeforeMarker("alice", "alice", alice);
      },
      [
        `alice ${OPEN}`,
        `bob ${OPEN}`,
        'bob <- {"type":"LEAVE","src":"alice","dst":"bob"}',
        "alice silent",
        `erin ${OPEN}`,
        "erin silent",
        'alice <- {"type":"EXPIRE","src":"zed","dst":"alice"}',
        "alice silent",
      ],
    ));

  test("HEARTBEAT, unknown types and frames that are not JSON objects get no answer", () =>
    compare(
      async (t) => {
        const alice = t.open("alice");
        await t.frame("alice", alice);
        for (const frame of [{ type: "HEARTBEAT" }, { type: "OPEN" }, { type: "NOPE", dst: t.id("alice") }, "hello", "{bad", "123", "null", "[1]", '"s"'])
          alice.send(frame);
        await t.quietBeforeMarker("alice", "alice", alice);
        t.state("alice", alice);
      },
      [`alice ${OPEN}`, "alice silent", "alice open"],
    ));

  test("JSON that arrives with leading spaces or as a binary frame is relayed like any other", () =>
    compare(
      async (t) => {
        const [alice, bob] = await t.pair("alice", "bob");
        alice.send(` {"type":"OFFER","dst":"${t.id("bob")}","payload":"spaced"}`);
        await t.frame("bob", bob);
        alice.send(new TextEncoder().encode(`{"type":"OFFER","dst":"${t.id("bob")}","payload":"binary"}`));
        await t.frame("bob", bob);
      },
      [
        `alice ${OPEN}`,
        `bob ${OPEN}`,
        'bob <- {"type":"OFFER","src":"alice","dst":"bob","payload":"spaced"}',
        'bob <- {"type":"OFFER","src":"alice","dst":"bob","payload":"binary"}',
      ],
    ));
});
