// Each scenario runs against the real `peer` 1.0.2 and against our /peerjs at the same time; the
// transcripts (every frame's exact text, closes and silences, run prefixes removed) must be
// equal. Each also checks the reference transcript, so that a scenario proves something.
import { describe, test } from "bun:test";
import { differential, TIMINGS } from "./servers.ts";

const compare = differential();

const OPEN = '<- {"type":"OPEN"}';
const errorFrame = (msg: string) => `<- {"type":"ERROR","payload":{"msg":"${msg}"}}`;
const NO_PARAMS = errorFrame("No id, token, or key supplied to websocket server");

describe("connecting, as peer 1.0.2 answers it", () => {
  test("a client with id, token and key is sent OPEN and nothing else", () =>
    compare(
      async (t) => {
        const alice = t.open("alice");
        await t.frame("alice", alice);
        await t.quietBeforeMarker("alice", "alice", alice);
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
        await t.quietBeforeMarker("second", "alice", second);
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

  test("a LEAVE addressed to nobody frees the sender's id, though its socket stays open and sends HEARTBEATs", () =>
    compare(
      async (t) => {
        const alice = t.open("alice", "first");
        await t.frame("alice", alice);
        alice.send({ type: "LEAVE" });
        // Kept alive, so that only the LEAVE can free the id, never the silence sweep.
        const beat = setInterval(() => alice.send({ type: "HEARTBEAT" }), 200);
        try {
          await t.reopen("again", "alice", "second");
        } finally {
          clearInterval(beat);
        }
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
        // Within the alive timeout, so that the close freed it and not the silence sweep.
        await t.reopen("again", "alice", "second", TIMINGS.aliveTimeoutMs);
      },
      [`alice ${OPEN}`, `again ${OPEN}`],
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
