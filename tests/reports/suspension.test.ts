// Automatic suspension from roulette: the weight rule alone, then end to end over HTTP and the socket.
import { transaction } from "../../src/storage/index.ts";
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { eq } from "drizzle-orm";
import { reports, users } from "../../src/storage/tables.ts";
import { reachesSuspension, reporterWeight, voiceWeights } from "../../src/reports/weights.ts";
import { registerUser } from "../support/app.ts";
import { listeningApp } from "../support/listening.ts";
import { connect } from "../support/ws.ts";

// Registering hashes passwords: slow on a busy machine.
setDefaultTimeout(30_000);

const HOUR = 60 * 60_000;

describe("the weight rule", () => {
  test("an account older than a day weighs 1, a newer one 0.5, a guest 0.25 however old", () => {
    const now = 100 * 24 * HOUR;
    expect(reporterWeight({ isGuest: false, createdAt: now - 25 * HOUR }, now)).toBe(1);
    expect(reporterWeight({ isGuest: false, createdAt: now - 23 * HOUR }, now)).toBe(0.5);
    expect(reporterWeight({ isGuest: true, createdAt: now - 30 * 24 * HOUR }, now)).toBe(0.25);
  });

  test("three established reporters reach the default threshold; two do not", () => {
    expect(reachesSuspension([1, 1, 1], 3)).toBe(true);
    expect(reachesSuspension([1, 1], 3)).toBe(false);
  });

  test("guests and new accounts alone never reach it, however many", () => {
    expect(reachesSuspension(Array(12).fill(0.25), 3)).toBe(false);
    expect(reachesSuspension(Array(1000).fill(0.25), 3)).toBe(false);
    expect(reachesSuspension(Array(1000).fill(0.5), 3)).toBe(false);
  });

  test("light reporters count for at most threshold - 1 beside at least one established reporter", () => {
    expect(reachesSuspension([1, 0.5, 0.5, 0.5, 0.5], 3)).toBe(true);
    expect(reachesSuspension([1, ...Array(8).fill(0.25)], 3)).toBe(true);
    expect(reachesSuspension([1, ...Array(7).fill(0.25)], 3)).toBe(false);
    expect(reachesSuspension([1, ...Array(100).fill(0.5)], 5)).toBe(true);
    expect(reachesSuspension([1], 1)).toBe(true);
    expect(reachesSuspension([0.5, 0.5], 1)).toBe(false);
  });
});

describe("voices", () => {
  const report = (reporterId: number, weight: number, addressHash: string | null = null, deviceId: string | null = null) => ({ reporterId, weight, addressHash, deviceId });

  test("one reporter, one network or one device is one voice, with its heaviest report", () => {
    expect(voiceWeights([report(1, 0.5), report(1, 1), report(2, 1)]).sort()).toEqual([1, 1]);
    expect(voiceWeights([report(1, 1, "net"), report(2, 1, "net"), report(3, 0.5, "net")])).toEqual([1]);
    expect(voiceWeights([report(1, 0.25, null, "dev"), report(2, 1, null, "dev")])).toEqual([1]);
  });

  test("voices chain: a network shared by two and a device shared by the second and a third make one", () => {
    expect(voiceWeights([report(1, 1, "net1", "dev1"), report(2, 1, "net1", "dev2"), report(3, 1, "net3", "dev2"), report(4, 1, "net4", "dev4")])).toEqual([1, 1]);
  });

  test("where reporters signed in from joins them too, but only reporters whose reports weigh", () => {
    const signIn = (userId: number, addressHash: string | null, deviceId: string | null = null) => ({ userId, addressHash, deviceId });
    const reports = [report(1, 1, "net1", "dev1"), report(2, 1, "net2", "dev2"), report(3, 1, "net3", "dev3")];
    expect(voiceWeights(reports, [signIn(1, "home"), signIn(2, "home")])).toEqual([1, 1]);
    expect(voiceWeights(reports, [signIn(1, null, "phone"), signIn(3, null, "phone"), signIn(2, "net1")])).toEqual([1]);
    expect(voiceWeights([report(1, 1, "net1"), report(2, 0, "net2")], [signIn(1, "home"), signIn(2, "home"), signIn(9, "net1")])).toEqual([1]);
  });

  test("reports that weigh nothing (no contact) are no voice and join nobody", () => {
    expect(voiceWeights([report(1, 0, "net1", "dev1")])).toEqual([]);
    expect(voiceWeights([report(1, 1, "net1", "devA"), report(2, 0, "net1", "devB"), report(3, 1, "net3", "devB")])).toEqual([1, 1]);
  });
});

// Since issue 18 a report weighs only from someone who met the reported person: in these tests each
// reporter first exchanged a message with them (before, reports from strangers counted).
describe("suspension from roulette", () => {
  const t = listeningApp({ SIGNUP_RATE_LIMIT: "1000" });

  /** A registered account made two days ago. */
  async function established() {
    const u = await registerUser(t);
    await transaction(t.ctx.db, (tx) => tx.update(users).set({ createdAt: Date.now() - 48 * HOUR }).where(eq(users.id, u.user.id)));
    return u;
  }
  async function guest() {
    const r = await t.call("POST", "/api/guest/create", { json: { gender: "male", adult: true } });
    return { token: r.body.data.token as string, user: r.body.data.user as { id: number } };
  }
  /** `reporter` writes one message to `target`: a conversation, so the two have met. */
  async function meet(reporter: { token: string }, target: { user: { id: number } }) {
    const s = await connect(t.wsUrl, reporter.token);
    const sent = await s.ask("send_message", { receiverId: target.user.id, content: "hello", messageType: "text" });
    expect(sent.error).toBeUndefined();
    s.close();
  }
  const reportFor = (token: string, reportedUserId: number, reason = "sexual_content") =>
    t.call("POST", "/api/reports", { token, json: { reportedUserId, context: "profile", reason } });
  /** Meets `target`, then reports them. */
  async function metAndReported(reporter: { token: string }, target: { user: { id: number } }, reason = "sexual_content") {
    await meet(reporter, target);
    return reportFor(reporter.token, target.user.id, reason);
  }
  const suspendedAt = async (id: number) => (await t.ctx.db.select().from(users).where(eq(users.id, id)).limit(1))[0]!.rouletteSuspendedAt;

  test("three established reporters who met the user suspend them at once: the session ends and roulette_search answers suspended", async () => {
    const target = await registerUser(t);
    const partner = await registerUser(t);
    const st = await connect(t.wsUrl, target.token);
    const sp = await connect(t.wsUrl, partner.token);
    await st.ask("roulette_search", { filters: { gender: "any", country: "any" } });
    await sp.ask("roulette_search", { filters: { gender: "any", country: "any" } });
    await sp.next("roulette_partner_found");
    const reporters = [await established(), await established(), await established()];
    expect((await metAndReported(reporters[0]!, target)).status).toBe(201);
    expect((await metAndReported(reporters[1]!, target, "underage")).status).toBe(201);
    expect(await suspendedAt(target.user.id)).toBeNull();
    expect(await sp.silent("roulette_partner_disconnected")).toBe(true);
    expect((await metAndReported(reporters[2]!, target)).status).toBe(201);
    expect(await suspendedAt(target.user.id)).toBeNumber();
    await sp.next("roulette_partner_disconnected");
    const notice = await st.next("error");
    expect(notice.data).toEqual({ code: "suspended", message: "You can't use Video Roulette until a moderator reviews reports about you", event: "roulette_search" });
    const refused = await st.ask("roulette_search", { filters: { gender: "any", country: "any" } });
    expect(refused.error?.code).toBe("suspended");
    st.close();
    sp.close();
  });

  test("twelve guests who met the user, reporting for sexual content, do not suspend anyone", async () => {
    const target = await registerUser(t);
    for (let i = 0; i < 12; i++) {
      const g = await guest();
      const r = await metAndReported(g, target);
      expect(r.status).toBe(201);
      expect((await t.ctx.db.select().from(reports).where(eq(reports.id, r.body.report.id)).limit(1))[0]!.weight).toBe(0.25);
    }
    expect(await suspendedAt(target.user.id)).toBeNull();
    // One established reporter beside them is enough: 1 + min(3, 2) = 3.
    expect((await metAndReported(await established(), target)).status).toBe(201);
    expect(await suspendedAt(target.user.id)).toBeNumber();
  });

  test("other reasons, repeated reports by one person and reports older than a day do not count", async () => {
    const target = await registerUser(t);
    const one = await established();
    for (const reason of ["harassment", "spam", "violence", "other"]) await metAndReported(await established(), target, reason);
    await metAndReported(one, target);
    await t.call("POST", "/api/reports", { token: one.token, json: { reportedUserId: target.user.id, context: "chat", reason: "underage" } });
    expect(await suspendedAt(target.user.id)).toBeNull();
    const old = await established();
    await metAndReported(old, target);
    await transaction(t.ctx.db, (tx) => tx.update(reports).set({ createdAt: Date.now() - 25 * HOUR }).where(eq(reports.reporterId, old.user.id)));
    await metAndReported(await established(), target, "harassment");
    expect(await suspendedAt(target.user.id)).toBeNull();
    await metAndReported(await established(), target);
    await metAndReported(await established(), target);
    expect(await suspendedAt(target.user.id)).toBeNumber();
    // Nine accounts, each hashing a password: well past 30 s on a loaded 2-core machine.
  }, 120_000);
});
