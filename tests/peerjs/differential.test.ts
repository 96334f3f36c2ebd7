// Each scenario runs against the real `peer` 1.0.2 and against our /peerjs at the same time; the
// transcripts (every frame's exact text, closes and silences, run prefixes removed) must be
// equal. Each also checks the reference transcript, so that a scenario proves something.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { both, type Scenario } from "./lab.ts";
import { type Running, startOurs, startReference, TIMINGS } from "./servers.ts";

let reference: Running;
let ours: Running;

beforeAll(async () => {
  [reference, ours] = await Promise.all([startReference(), startOurs()]);
});

afterAll(async () => {
  await Promise.all([reference?.stop(), ours?.stop()]);
});

async function compare(scenario: Scenario, expected: string[]): Promise<void> {
  const [theirs, mine] = await both(reference.server, ours.server, scenario);
  expect(theirs).toEqual(expected);
  expect(mine).toEqual(theirs);
}

const OPEN = '<- {"type":"OPEN"}';
const errorFrame = (msg: string) => `<- {"type":"ERROR","payload":{"msg":"${msg}"}}`;
const NO_PARAMS = errorFrame("No id, token, or key supplied to websocket server");

describe("the socket, as peer 1.0.2 answers it", () => {
  test("a client with id, token and key is sent OPEN and nothing else", () =>
    compare(
      async (t) => {
        const alice = t.open("alice");
        await t.frame("alice", alice);
        await t.quiet("alice", alice);
      },
      [`alice ${OPEN}`, "alice silent"],
    ));

  test("a missing id, token or key is answered with ERROR, then the socket is closed", () =>
    compare(
      async (t) => {
        const cases = {
          nothing: {},
          "no token": { id: t.id("a"), key: "peerjs" },
          "no id": { token: "tok", key: "peerjs" },
          "no key": { id: t.id("a"), token: "tok" },
          "empty id": { id: "", token: "tok", key: "peerjs" },
        };
        for (const [label, query] of Object.entries(cases)) {
          const socket = t.open(label, "tok", query);
          await t.frame(label, socket);
          await t.closed(label, socket);
        }
      },
      ["nothing", "no token", "no id", "no key", "empty id"].flatMap((label) => [`${label} ${NO_PARAMS}`, `${label} closed 1005`]),
    ));

  test("a wrong key is answered with ERROR 'Invalid key provided', then closed", () =>
    compare(
      async (t) => {
        const socket = t.open("alice", "tok", { id: t.id("alice"), token: "tok", key: "not-the-key" });
        await t.frame("alice", socket);
        await t.closed("alice", socket);
      },
      [`alice ${errorFrame("Invalid key provided")}`, "alice closed 1005"],
    ));

  test("an id held with another token is answered with ID-TAKEN and closed; the holder keeps it", () =>
    compare(
      async (t) => {
        const alice = t.open("alice", "first");
        await t.frame("alice", alice);
        const impostor = t.open("alice", "second");
        await t.frame("impostor", impostor);
        await t.closed("impostor", impostor);
        const bob = t.open("bob");
        await t.frame("bob", bob);
        bob.send({ type: "OFFER", dst: t.id("alice"), payload: { n: 1 } });
        await t.frame("alice", alice);
      },
      [
        `alice ${OPEN}`,
        'impostor <- {"type":"ID-TAKEN","payload":{"msg":"ID is taken"}}',
        "impostor closed 1005",
        `bob ${OPEN}`,
        'alice <- {"type":"OFFER","src":"bob","dst":"alice","payload":{"n":1}}',
      ],
    ));

  test("the same id and token again takes the socket over, without a second OPEN", () =>
    compare(
      async (t) => {
        const first = t.open("alice", "same");
        await t.frame("first", first);
        const second = t.open("alice", "same");
        await t.quiet("second", second);
        const bob = t.open("bob");
        await t.frame("bob", bob);
        bob.send({ type: "CANDIDATE", dst: t.id("alice"), payload: { c: 1 } });
        await t.frame("second", second);
        await t.quiet("first", first);
      },
      [
        `first ${OPEN}`,
        "second silent",
        `bob ${OPEN}`,
        'second <- {"type":"CANDIDATE","src":"bob","dst":"alice","payload":{"c":1}}',
        "first silent",
      ],
    ));

  test("OFFER, ANSWER and CANDIDATE are relayed with the server's src and only the known fields", () =>
    compare(
      async (t) => {
        const alice = t.open("alice");
        const bob = t.open("bob");
        await t.frame("alice", alice);
        await t.frame("bob", bob);
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
        await Bun.sleep(50);
        const carol = t.open("carol");
        for (let i = 0; i < 3; i++) await t.frame("carol", carol);
        await t.quiet("alice", alice, TIMINGS.expireTimeoutMs + 3 * TIMINGS.cleanupIntervalMs);
      },
      [
        `alice ${OPEN}`,
        `carol ${OPEN}`,
        'carol <- {"type":"OFFER","src":"alice","dst":"carol","payload":1}',
        'carol <- {"type":"CANDIDATE","src":"alice","dst":"carol","payload":2}',
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
        await t.frame("alice", alice);
        await t.quiet("alice", alice, 3 * TIMINGS.cleanupIntervalMs);
        const dave = t.open("dave");
        await t.frame("dave", dave);
        await t.quiet("dave", dave);
      },
      [`alice ${OPEN}`, 'alice <- {"type":"EXPIRE","src":"dave","dst":"alice"}', "alice silent", `dave ${OPEN}`, "dave silent"],
    ));

  test("LEAVE is relayed to a connected peer, and neither queued nor expired for an absent one", () =>
    compare(
      async (t) => {
        const alice = t.open("alice");
        const bob = t.open("bob");
        await t.frame("alice", alice);
        await t.frame("bob", bob);
        alice.send({ type: "LEAVE", dst: t.id("bob") });
        await t.frame("bob", bob);
        alice.send({ type: "LEAVE", dst: t.id("erin") });
        alice.send({ type: "EXPIRE", dst: t.id("erin") });
        await t.quiet("alice", alice, TIMINGS.expireTimeoutMs + 3 * TIMINGS.cleanupIntervalMs);
        const erin = t.open("erin");
        await t.frame("erin", erin);
        await t.quiet("erin", erin);
      },
      [`alice ${OPEN}`, `bob ${OPEN}`, 'bob <- {"type":"LEAVE","src":"alice","dst":"bob"}', "alice silent", `erin ${OPEN}`, "erin silent"],
    ));

  test("a LEAVE addressed to nobody frees the sender's id at once", () =>
    compare(
      async (t) => {
        const alice = t.open("alice", "first");
        await t.frame("alice", alice);
        alice.send({ type: "LEAVE" });
        await Bun.sleep(100);
        const again = t.open("alice", "second");
        await t.frame("again", again);
      },
      [`alice ${OPEN}`, `again ${OPEN}`],
    ));

  test("closing frees the id", () =>
    compare(
      async (t) => {
        const alice = t.open("alice", "first");
        await t.frame("alice", alice);
        alice.close();
        await alice.closed;
        await Bun.sleep(100);
        const again = t.open("alice", "second");
        await t.frame("again", again);
      },
      [`alice ${OPEN}`, `again ${OPEN}`],
    ));

  test("HEARTBEAT, unknown types and frames that are not JSON objects get no answer", () =>
    compare(
      async (t) => {
        const alice = t.open("alice");
        await t.frame("alice", alice);
        for (const frame of [{ type: "HEARTBEAT" }, { type: "OPEN" }, { type: "NOPE", dst: t.id("alice") }, "hello", "{bad", "123", "null", "[1]", '"s"'])
          alice.send(frame);
        await t.quiet("alice", alice, 200);
        t.state("alice", alice);
      },
      [`alice ${OPEN}`, "alice silent", "alice open"],
    ));

  test("JSON that arrives with leading spaces or as a binary frame is relayed like any other", () =>
    compare(
      async (t) => {
        const alice = t.open("alice");
        const bob = t.open("bob");
        await t.frame("alice", alice);
        await t.frame("bob", bob);
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

  test("a client silent for the alive timeout is dropped; one sending HEARTBEATs stays", () =>
    compare(
      async (t) => {
        const quiet = t.open("quiet");
        const chatty = t.open("chatty");
        await t.frame("quiet", quiet);
        await t.frame("chatty", chatty);
        const beat = setInterval(() => chatty.send({ type: "HEARTBEAT" }), 200);
        try {
          await t.closed("quiet", quiet, TIMINGS.aliveTimeoutMs + 1500);
          t.state("chatty", chatty);
        } finally {
          clearInterval(beat);
        }
      },
      [`quiet ${OPEN}`, `chatty ${OPEN}`, "quiet closed 1005", "chatty open"],
    ));
});
