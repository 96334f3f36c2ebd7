// Automatic suspension from roulette: the weight rule alone, then end to end over HTTP and the socket.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { eq } from "drizzle-orm";
import { reports, users } from "../../db/schema.ts";
import { reachesSuspension, reporterWeight } from "../../src/reports/weights.ts";
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

describe("suspension from roulette", () => {
  const t = listeningApp({ SIGNUP_RATE_LIMIT: "1000" });

  /** A registered account made two days ago. */
  async function established() {
    const u = await registerUser(t);
    t.ctx.db.update(users).set({ createdAt: Date.now() - 48 * HOUR }).where(eq(users.id, u.user.id)).run();
    return u;
  }
  async function guest() {
    const r = await t.call("POST", "/api/guest/create", { json: { gender: "male", adult: true } });
    return { token: r.body.data.token as string, user: r.body.data.user as { id: number } };
  }
  const reportFor = (token: string, reportedUserId: number, reason = "sexual_content") =>
    t.call("POST", "/api/reports", { token, json: { reportedUserId, context: "profile", reason } });
  const suspendedAt = (id: number) => t.ctx.db.select().from(users).where(eq(users.id, id)).get()!.rouletteSuspendedAt;

  test("three established reporters suspend a user at once: the session ends and roulette_search answers suspended", async () => {
    const target = await registerUser(t);
    const partner = await registerUser(t);
    const st = await connect(t.wsUrl, target.token);
    const sp = await connect(t.wsUrl, partner.token);
    await st.ask("roulette_search", { filters: { gender: "any", country: "any" } });
    await sp.ask("roulette_search", { filters: { gender: "any", country: "any" } });
    await sp.next("roulette_partner_found");
    const reporters = [await established(), await established(), await established()];
    expect((await reportFor(reporters[0]!.token, target.user.id)).status).toBe(201);
    expect((await reportFor(reporters[1]!.token, target.user.id, "underage")).status).toBe(201);
    expect(suspendedAt(target.user.id)).toBeNull();
    expect(await sp.silent("roulette_partner_disconnected", 100)).toBe(true);
    expect((await reportFor(reporters[2]!.token, target.user.id)).status).toBe(201);
    expect(suspendedAt(target.user.id)).toBeNumber();
    await sp.next("roulette_partner_disconnected");
    const notice = await st.next("error");
    expect(notice.data).toEqual({ code: "suspended", message: "You can't use Video Roulette until a moderator reviews reports about you", event: "roulette_search" });
    const refused = await st.ask("roulette_search", { filters: { gender: "any", country: "any" } });
    expect(refused.error?.code).toBe("suspended");
    st.close();
    sp.close();
  });

  test("twelve guests reporting for sexual content do not suspend anyone", async () => {
    const target = await registerUser(t);
    for (let i = 0; i < 12; i++) {
      const g = await guest();
      const r = await reportFor(g.token, target.user.id);
      expect(r.status).toBe(201);
      expect(t.ctx.db.select().from(reports).where(eq(reports.id, r.body.report.id)).get()!.weight).toBe(0.25);
    }
    expect(suspendedAt(target.user.id)).toBeNull();
    // One established reporter beside them is enough: 1 + min(3, 2) = 3.
    expect((await reportFor((await established()).token, target.user.id)).status).toBe(201);
    expect(suspendedAt(target.user.id)).toBeNumber();
  });

  test("other reasons, repeated reports by one person and reports older than a day do not count", async () => {
    const target = await registerUser(t);
    const one = await established();
    for (const reason of ["harassment", "spam", "violence", "other"]) await reportFor((await established()).token, target.user.id, reason);
    await reportFor(one.token, target.user.id);
    await t.call("POST", "/api/reports", { token: one.token, json: { reportedUserId: target.user.id, context: "chat", reason: "underage" } });
    expect(suspendedAt(target.user.id)).toBeNull();
    const old = await established();
    await reportFor(old.token, target.user.id);
    t.ctx.db.update(reports).set({ createdAt: Date.now() - 25 * HOUR }).where(eq(reports.reporterId, old.user.id)).run();
    await reportFor((await established()).token, target.user.id, "harassment");
    expect(suspendedAt(target.user.id)).toBeNull();
    await reportFor((await established()).token, target.user.id);
    await reportFor((await established()).token, target.user.id);
    expect(suspendedAt(target.user.id)).toBeNumber();
  });
});
