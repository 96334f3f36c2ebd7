import { describe, expect, test } from "bun:test";
import { MAX_PARTED_SKIPS, RouletteQueue } from "../../src/roulette/queue.ts";
import { MAX_ENDED_CHARS, MAX_ENDED_SESSIONS, SESSION_RETAIN_MS } from "../../src/roulette/sessions.ts";
import type { ClientSocket } from "../../src/realtime/socket.ts";
import { fakeSocket } from "../support/fake-socket.ts";

const any = { gender: "any" as const, country: "any" };
const profile = (userId: number, gender = "male", countryCode: string | null = "DE") => ({ userId, gender, countryCode });

describe("the roulette queue", () => {
  test("offers the longest-waiting suitable partner first", () => {
    const q = new RouletteQueue();
    const wantsWoman = { gender: "female" as const, country: "any" };
    expect(q.search(profile(1, "male"), wantsWoman, fakeSocket(1))).toBeNull();
    expect(q.search(profile(2, "male"), wantsWoman, fakeSocket(2))).toBeNull();
    const pairing = q.search(profile(3, "female"), any, fakeSocket(3));
    expect(pairing?.offerer.profile.userId).toBe(3);
    expect(pairing?.answerer.profile.userId).toBe(1);
    expect(q.partnerOf(1)).toBe(3);
    expect(q.isWaiting(2)).toBe(true);
  });

  test("keeps just-parted users apart while someone else suitable waits, for a minute at most", () => {
    let now = 1_000_000;
    const q = new RouletteQueue(() => now);
    const wantsWoman = { gender: "female" as const, country: "any" };
    q.search(profile(2), any, fakeSocket(2));
    q.search(profile(1, "female"), any, fakeSocket(1));
    q.leave(1); // 1 and 2 just parted
    q.search(profile(2), any, fakeSocket(2));
    q.search(profile(3), wantsWoman, fakeSocket(3)); // waits: 2 is a man
    // 2 waited longer, but 3 suits and is new to 1.
    expect(q.search(profile(1, "female"), any, fakeSocket(1))?.answerer.profile.userId).toBe(3);
    q.leave(1);
    q.search(profile(3), wantsWoman, fakeSocket(3));
    // A minute later 1 has parted from both; only the minute-old parting has expired.
    now += 61_000;
    q.leave(3);
    q.search(profile(3), wantsWoman, fakeSocket(3));
    q.search(profile(4), wantsWoman, fakeSocket(4));
    q.leave(3);
    expect(q.search(profile(1, "female"), any, fakeSocket(1))?.answerer.profile.userId).toBe(2);
  });

  test("meets a just-parted user again rather than wait when nobody else suitable waits", () => {
    const q = new RouletteQueue();
    const wantsWoman = { gender: "female" as const, country: "any" };
    const wantsMan = { gender: "male" as const, country: "any" };
    // Two women and two men meet each other once each, in turn.
    for (const [man, woman] of [[1, 3], [1, 4], [2, 3], [2, 4]] as const) {
      q.search(profile(woman, "female"), wantsMan, fakeSocket(woman));
      expect(q.search(profile(man, "male"), wantsWoman, fakeSocket(man))?.answerer.profile.userId).toBe(woman);
      q.leave(man);
    }
    // Everyone has now parted from everyone within the minute; 3 and 4 wait again. A man is not
    // left waiting beside them: he meets the longest-waiting one again.
    q.search(profile(3, "female"), wantsMan, fakeSocket(3));
    q.search(profile(4, "female"), wantsMan, fakeSocket(4));
    expect(q.search(profile(1, "male"), wantsWoman, fakeSocket(1))?.answerer.profile.userId).toBe(3);
    // Blocks and reports still keep people apart: 2 is never offered 4.
    expect(q.search(profile(2, "male"), wantsWoman, fakeSocket(2), (a, b) => a + b !== 6)).toBeNull();
  });

  test("a search steps over at most MAX_PARTED_SKIPS just-parted people, then takes the longest-waiting of them", () => {
    const wantsWoman = { gender: "female" as const, country: "any" };
    const wantsMan = { gender: "male" as const, country: "any" };
    for (const ahead of [MAX_PARTED_SKIPS - 1, MAX_PARTED_SKIPS]) {
      const q = new RouletteQueue();
      // Man 1 meets and parts from `ahead` women, who then all wait again, with one new woman behind them.
      for (let w = 0; w < ahead; w++) {
        q.search(profile(100 + w, "female"), wantsMan, fakeSocket(100 + w));
        q.search(profile(1, "male"), wantsWoman, fakeSocket(1));
        q.leave(1);
      }
      for (let w = 0; w < ahead; w++) q.search(profile(100 + w, "female"), wantsMan, fakeSocket(100 + w));
      q.search(profile(999, "female"), wantsMan, fakeSocket(999));
      const met = q.search(profile(1, "male"), wantsWoman, fakeSocket(1))?.answerer.profile.userId;
      expect(met).toBe(ahead < MAX_PARTED_SKIPS ? 999 : 100);
    }
  });

  test("a user with no country never suits a country filter", () => {
    const q = new RouletteQueue();
    q.search(profile(1, "male", null), any, fakeSocket(1));
    expect(q.search(profile(2), { gender: "any", country: "DE" }, fakeSocket(2))).toBeNull();
  });

  test("never pairs two users the predicate keeps apart, nor two kept apart for good", () => {
    const q = new RouletteQueue();
    q.search(profile(1), any, fakeSocket(1));
    expect(q.search(profile(2), any, fakeSocket(2), (a, b) => !(a === 2 && b === 1))).toBeNull();
    q.leave(2);
    q.keepApart(1, 3);
    expect(q.search(profile(3), any, fakeSocket(3))).toBeNull();
    expect(q.search(profile(4), any, fakeSocket(4))?.answerer.profile.userId).toBe(1);
  });
});

describe("roulette sessions", () => {
  test("every pairing gets a new opaque id that names neither user", () => {
    const q = new RouletteQueue();
    const ids = new Set<string>();
    for (let i = 0; i < 5; i++) {
      q.search(profile(1), any, fakeSocket(1));
      const pairing = q.search(profile(2), any, fakeSocket(2))!;
      expect(pairing.session.id).toMatch(/^[A-Za-z0-9_-]{22}$/);
      ids.add(pairing.session.id);
      q.leave(1);
    }
    expect(ids.size).toBe(5);
  });

  test("strangerOf answers the other participant during the session and for 10 minutes after, to participants only", () => {
    let now = 5_000_000;
    const q = new RouletteQueue(() => now);
    q.search(profile(1), any, fakeSocket(1));
    const { session } = q.search(profile(2), any, fakeSocket(2))!;
    expect(q.strangerOf(session.id, 1)).toBe(2);
    expect(q.strangerOf(session.id, 2)).toBe(1);
    expect(q.strangerOf(session.id, 3)).toBeUndefined();
    expect(q.strangerOf("unknown", 1)).toBeUndefined();
    now += 60 * 60_000; // a long session is still current
    expect(q.strangerOf(session.id, 1)).toBe(2);
    q.leave(2);
    now += SESSION_RETAIN_MS - 1;
    expect(q.strangerOf(session.id, 1)).toBe(2);
    now += 1;
    expect(q.strangerOf(session.id, 1)).toBeUndefined();
  });

  test("the text of a session is kept until 10 minutes after it ends, then dropped", () => {
    let now = 9_000_000;
    const q = new RouletteQueue(() => now);
    q.search(profile(1), any, fakeSocket(1));
    const { session } = q.search(profile(2), any, fakeSocket(2))!;
    q.sessions.addLine(session, { senderId: 1, text: "hello", at: now });
    q.leave(1);
    now += 9 * 60_000;
    expect(q.sessions.find(session.id)?.lines.map((l) => l.text)).toEqual(["hello"]);
    now += 60_000;
    expect(q.sessions.find(session.id)).toBeUndefined();
  });

  test("expired sessions are swept as others end, so memory does not grow with every pairing", () => {
    let now = 1_000;
    const q = new RouletteQueue(() => now);
    for (let i = 0; i < 50; i++) {
      q.search(profile(1), any, fakeSocket(1));
      q.search(profile(2), any, fakeSocket(2));
      q.leave(1);
      now += 61_000;
    }
    // Ten minutes is about ten of these pairings (61 s apart), plus the one just ended.
    expect(q.sessions.size).toBeLessThanOrEqual(11);
  });

  test("a session keeps its newest 200 lines at most", () => {
    const q = new RouletteQueue();
    q.search(profile(1), any, fakeSocket(1));
    const { session } = q.search(profile(2), any, fakeSocket(2))!;
    for (let i = 0; i < 250; i++) q.sessions.addLine(session, { senderId: 1, text: `line ${i}`, at: i });
    expect(session.lines).toHaveLength(200);
    expect(session.lines[0]!.text).toBe("line 50");
    expect(session.lines.at(-1)!.text).toBe("line 249");
  });

  test("keeps at most MAX_ENDED_SESSIONS ended sessions, dropping the oldest first, even within 10 minutes", () => {
    const q = new RouletteQueue(() => 1_000);
    let first = "";
    for (let i = 0; i < MAX_ENDED_SESSIONS + 10; i++) {
      q.search(profile(1), any, fakeSocket(1));
      const { session } = q.search(profile(2), any, fakeSocket(2))!;
      first ||= session.id;
      q.leave(1);
    }
    expect(q.sessions.size).toBeLessThanOrEqual(MAX_ENDED_SESSIONS + 1);
    expect(q.strangerOf(first, 1)).toBeUndefined();
  });

  test("keeps the text of all ended sessions within MAX_ENDED_CHARS together", () => {
    const q = new RouletteQueue(() => 1_000);
    const line = "x".repeat(500);
    const perSession = 40 * line.length;
    const sessions = Math.ceil(MAX_ENDED_CHARS / perSession) + 5;
    for (let i = 0; i < sessions; i++) {
      q.search(profile(1), any, fakeSocket(1));
      const { session } = q.search(profile(2), any, fakeSocket(2))!;
      for (let j = 0; j < 40; j++) q.sessions.addLine(session, { senderId: 1, text: line, at: 1_000 });
      q.leave(1);
    }
    expect(q.sessions.size * perSession).toBeLessThanOrEqual(MAX_ENDED_CHARS);
  });
});

describe("places per network and device", () => {
  const at = (userId: number, address: string, deviceId: string | null = null): ClientSocket => ({ ...fakeSocket(userId), address, deviceId });
  const wantsWoman = { gender: "female" as const, country: "any" };

  test("a refused search keeps the searcher's earlier place, and their own place never counts against them", () => {
    const q = new RouletteQueue(() => 0, { perAddress: 2, perDevice: 5 });
    q.search(profile(1), wantsWoman, at(1, "10.0.0.1"));
    q.search(profile(2), wantsWoman, at(2, "10.0.0.9"));
    q.search(profile(3), wantsWoman, at(3, "10.0.0.9"));
    expect(() => q.search(profile(1), any, at(1, "10.0.0.9"))).toThrow(expect.objectContaining({ code: "rate_limited" }));
    expect(q.isWaiting(1)).toBe(true);
    // Still waiting with its first filters: a man does not suit it.
    expect(q.search(profile(4, "male"), any, at(4, "10.0.0.4"))).toBeNull();
    expect(q.search(profile(2), { gender: "any", country: "any" }, at(2, "10.0.0.9"))?.answerer.profile.userId).toBe(4);
    expect(q.search(profile(1), any, at(1, "10.0.0.9"))).toBeNull();
    expect(q.waitingCount).toBe(2);
  });

  test("IPv6 addresses of one /64 share the network's places; a device's places hold across networks", () => {
    const q = new RouletteQueue(() => 0, { perAddress: 2, perDevice: 1 });
    q.search(profile(1), wantsWoman, at(1, "2001:db8:1:2::a"));
    q.search(profile(2), wantsWoman, at(2, "2001:db8:1:2::b"));
    expect(() => q.search(profile(3), wantsWoman, at(3, "2001:db8:1:2:ffff::1"))).toThrow(expect.objectContaining({ code: "rate_limited" }));
    expect(q.search(profile(3), wantsWoman, at(3, "2001:db8:1:3::1", "phone"))).toBeNull();
    expect(() => q.search(profile(5), wantsWoman, at(5, "192.0.2.5", "phone"))).toThrow(expect.objectContaining({ code: "rate_limited" }));
    q.leave(3);
    expect(q.search(profile(5), wantsWoman, at(5, "192.0.2.5", "phone"))).toBeNull();
    for (const id of [1, 2, 5]) q.leave(id);
    expect(q.originsHeld).toBe(0);
  });
});
