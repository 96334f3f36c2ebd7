// With ICE_TRANSPORT_POLICY=relay the server passes on no address but the relay's, in Video
// Roulette's socket relays and in /peerjs: host and srflx candidates are dropped, SDP candidate
// lines that are not relay are stripped, and relay candidates keep no raddr. Socket-level tests
// against the real app; the partner's socket shows exactly what was passed on.
import { beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { connectedUser, listeningApp, type ListeningApp } from "../support/listening.ts";
import { registerUser } from "../support/app.ts";
import type { TestSocket } from "../support/ws.ts";
import { pairUp } from "../support/roulette.ts";
import { openPeerSocket } from "../peerjs/client.ts";

setDefaultTimeout(20_000);

const SECRET = "turn-shared-secret-turn-shared-secret-0123";
const relayed = listeningApp({ TURN_URLS: "turn:127.0.0.1:3478", TURN_SECRET: SECRET, SIGNUP_RATE_LIMIT: "1000" });
const direct = listeningApp({ TURN_URLS: "turn:127.0.0.1:3478", TURN_SECRET: SECRET, ICE_TRANSPORT_POLICY: "all", SIGNUP_RATE_LIMIT: "1000" });

const HOST = "candidate:1 1 udp 2122260223 192.168.1.23 54321 typ host generation 0 ufrag abcd network-id 1";
const HOST6 = "candidate:2 1 udp 2122262783 2001:db8::23 54322 typ host generation 0";
const MDNS = "candidate:3 1 udp 2122260223 4f1c2a1e-1111-2222-3333-444455556666.local 54323 typ host generation 0";
const SRFLX = "candidate:4 1 udp 1686052607 203.0.113.7 61000 typ srflx raddr 192.168.1.23 rport 54321 generation 0";
const PRFLX = "candidate:5 1 udp 1845501695 203.0.113.7 61001 typ prflx raddr 192.168.1.23 rport 54321 generation 0";
const RELAY = "candidate:6 1 udp 41885439 127.0.0.1 49160 typ relay raddr 203.0.113.7 rport 61000 generation 0 ufrag abcd";
const RELAY_CLEAN = "candidate:6 1 udp 41885439 127.0.0.1 49160 typ relay raddr 0.0.0.0 rport 0 generation 0 ufrag abcd";

const sdp = [
  "v=0",
  "o=- 4611731400430051336 2 IN IP4 127.0.0.1",
  "s=-",
  "t=0 0",
  "m=video 54321 UDP/TLS/RTP/SAVPF 96",
  "c=IN IP4 203.0.113.7",
  "a=rtcp:9 IN IP4 192.168.1.23",
  `a=${HOST}`,
  `a=${HOST6}`,
  `a=${MDNS}`,
  `a=${SRFLX}`,
  `a=${RELAY}`,
  "a=ice-ufrag:abcd",
  "a=mid:0",
  "",
].join("\r\n");

/** Every IP address-looking token but the relay's own (127.0.0.1) and the blanked 0.0.0.0. */
const leaks = (text: string) =>
  [...text.matchAll(/\b(?:\d{1,3}\.){3}\d{1,3}\b|2001:db8::23|\.local\b/g)].map((m) => m[0]).filter((a) => a !== "127.0.0.1" && a !== "0.0.0.0");

async function paired(t: ListeningApp): Promise<{ a: TestSocket; b: TestSocket; id: string }> {
  const [a, b] = [await connectedUser(t), await connectedUser(t)];
  return { a: a.s, b: b.s, id: await pairUp(a, b) };
}

describe("Video Roulette under the relay policy", () => {
  let p: Awaited<ReturnType<typeof paired>>;
  beforeAll(async () => {
    p = await paired(relayed);
  });

  test("drops host, mDNS, srflx and prflx candidates without passing them on", async () => {
    for (const candidate of [HOST, HOST6, MDNS, SRFLX, PRFLX]) {
      const ack = await p.a.ask("roulette_ice_candidate", { partnerId: p.id, candidate: { candidate, sdpMid: "0", sdpMLineIndex: 0 } });
      expect(ack.error).toBeUndefined();
    }
    expect(await p.b.silent("roulette_ice_candidate", p.a)).toBe(true);
  });

  test("passes a relay candidate on with its related address blanked", async () => {
    p.a.send("roulette_ice_candidate", { partnerId: p.id, candidate: { candidate: RELAY, sdpMid: "0", sdpMLineIndex: 0, usernameFragment: "abcd", extra: "192.168.1.23" } });
    const got = await p.b.next("roulette_ice_candidate");
    expect(got.data).toEqual({ partnerId: p.id, candidate: { candidate: RELAY_CLEAN, sdpMid: "0", sdpMLineIndex: 0, usernameFragment: "abcd" } });
  });

  test("strips every non-relay candidate line and real address from offers and answers", async () => {
    p.a.send("roulette_offer", { partnerId: p.id, offer: { type: "offer", sdp } });
    const offer = (await p.b.next("roulette_offer")).data.offer;
    expect(offer.type).toBe("offer");
    expect(offer.sdp).toContain(`a=${RELAY_CLEAN}`);
    expect(offer.sdp.match(/a=candidate:/g)).toHaveLength(1);
    expect(offer.sdp).toContain("c=IN IP4 0.0.0.0");
    expect(leaks(offer.sdp)).toEqual([]);
    p.b.send("roulette_answer", { partnerId: p.id, answer: { type: "answer", sdp } });
    const answer = (await p.a.next("roulette_answer")).data.answer;
    expect(leaks(JSON.stringify(answer))).toEqual([]);
    expect(answer.sdp).toContain(`a=${RELAY_CLEAN}`);
  });

  test("drops a description that is not one rather than pass on what it carries", async () => {
    p.a.send("roulette_offer", { partnerId: p.id, offer: { type: "offer", sdp: 5, note: "192.168.1.23" } });
    p.a.send("roulette_offer", { partnerId: p.id, offer: "192.168.1.23" });
    expect(await p.b.silent("roulette_offer", p.a)).toBe(true);
  });
});

describe("Video Roulette with the policy all", () => {
  test("passes candidates and descriptions on as they came", async () => {
    const p = await paired(direct);
    p.a.send("roulette_ice_candidate", { partnerId: p.id, candidate: { candidate: HOST, sdpMid: "0", sdpMLineIndex: 0 } });
    expect((await p.b.next("roulette_ice_candidate")).data.candidate.candidate).toBe(HOST);
    p.a.send("roulette_offer", { partnerId: p.id, offer: { type: "offer", sdp } });
    expect((await p.b.next("roulette_offer")).data.offer.sdp).toBe(sdp);
  });
});

describe("/peerjs under the relay policy", () => {
  let ids = 0;
  async function peers(t: ListeningApp) {
    const [one, two] = [await registerUser(t), await registerUser(t)];
    const open = (token: string) => {
      const id = `relay-test-${++ids}`;
      const socket = openPeerSocket(`${t.wsUrl}/peerjs/peerjs?key=peerjs&id=${id}&token=tok&version=1.5.5`, { cookie: `sid=${encodeURIComponent(token)}` });
      return { id, socket };
    };
    const a = open(one.token);
    const b = open(two.token);
    expect(await a.socket.opened).toBe(true);
    expect(await b.socket.opened).toBe(true);
    expect(JSON.parse(await a.socket.next()).type).toBe("OPEN");
    expect(JSON.parse(await b.socket.next()).type).toBe("OPEN");
    return { a, b };
  }

  test("drops non-relay CANDIDATEs, passes relay ones without raddr, and strips OFFER and ANSWER SDP", async () => {
    const { a, b } = await peers(relayed);
    for (const candidate of [HOST, SRFLX, MDNS]) {
      a.socket.send({ type: "CANDIDATE", dst: b.id, payload: { candidate: { candidate, sdpMid: "0", sdpMLineIndex: 0 }, type: "media", connectionId: "mc_1" } });
    }
    a.socket.send({ type: "CANDIDATE", dst: b.id, payload: { candidate: { candidate: RELAY, sdpMid: "0", sdpMLineIndex: 0 }, type: "media", connectionId: "mc_1" } });
    a.socket.send({ type: "OFFER", dst: b.id, payload: { sdp: { type: "offer", sdp }, type: "media", connectionId: "mc_1", metadata: {} } });
    b.socket.send({ type: "ANSWER", dst: a.id, payload: { sdp: { type: "answer", sdp }, type: "media", connectionId: "mc_1" } });
    const atB = (await b.socket.drain(400)).map((f) => JSON.parse(f));
    expect(atB.map((f) => f.type)).toEqual(["CANDIDATE", "OFFER"]);
    expect(atB[0].payload).toEqual({ candidate: { candidate: RELAY_CLEAN, sdpMid: "0", sdpMLineIndex: 0 }, type: "media", connectionId: "mc_1" });
    expect(atB[1].payload.sdp.sdp.match(/a=candidate:/g)).toHaveLength(1);
    expect(leaks(JSON.stringify(atB))).toEqual([]);
    const atA = (await a.socket.drain(200)).map((f) => JSON.parse(f));
    expect(atA.map((f) => f.type)).toEqual(["ANSWER"]);
    expect(leaks(JSON.stringify(atA))).toEqual([]);
  });

  test("passes LEAVE on as before", async () => {
    const { a, b } = await peers(relayed);
    a.socket.send({ type: "LEAVE", dst: b.id });
    expect(JSON.parse(await b.socket.next())).toEqual({ type: "LEAVE", src: a.id, dst: b.id });
  });

  test("with the policy all passes host candidates on unchanged", async () => {
    const { a, b } = await peers(direct);
    const payload = { candidate: { candidate: HOST, sdpMid: "0", sdpMLineIndex: 0 }, type: "media", connectionId: "mc_1" };
    a.socket.send({ type: "CANDIDATE", dst: b.id, payload });
    expect(JSON.parse(await b.socket.next()).payload).toEqual(payload);
  });
});
