// Reports toward the automatic roulette suspension from accounts one person can make at will
// (issue 18, item 10): they weigh only from people who met the reported person, and once per
// client network and per device. Real server on a random port; each client's address given by
// X-Forwarded-For (TRUST_PROXY), its device by the `did` cookie.
import { transaction } from "../../src/storage/index.ts";
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { eq } from "drizzle-orm";
import { reports, users } from "../../src/storage/tables.ts";
import { addressHash } from "../../src/auth/device.ts";
import { createGuest, registerUser } from "../support/app.ts";
import { listeningApp } from "../support/listening.ts";
import { connect, type TestSocket } from "../support/ws.ts";

// Registering hashes passwords: slow on a busy machine.
setDefaultTimeout(60_000);

const HOUR = 60 * 60_000;
const t = listeningApp({ SIGNUP_RATE_LIMIT: "10000", TRUST_PROXY: "true" });

interface Person {
  id: number;
  token: string;
  /** Where this person's requests and sockets come from. */
  address: string;
  cookie: string;
}

let devices = 0;
const newDevice = () => `did=${String(++devices).padStart(32, "x")}`;

/** A registered account, `old` ones made two days ago (they weigh 1, fresh ones 0.5). */
async function account(address: string, options: { old?: boolean; cookie?: string } = {}): Promise<Person> {
  const { token, user } = await registerUser(t);
  if (options.old) await transaction(t.ctx.db, (tx) => tx.update(users).set({ createdAt: Date.now() - 48 * HOUR }).where(eq(users.id, user.id)));
  return { id: user.id, token, address, cookie: options.cookie ?? newDevice() };
}

async function guest(address: string, cookie = newDevice()): Promise<Person> {
  const { token, user } = await createGuest(t, "male", { cookie });
  return { id: user.id, token, address, cookie };
}

let made = 0;
/** A day-old account registered over the network from `address` (its session remembers where). */
async function registeredFrom(address: string): Promise<{ id: number; token: string }> {
  const username = `made_${process.pid % 1000}_${++made}`;
  const r = await fetch(`${t.url}/api/auth/register`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": address },
    body: JSON.stringify({ username, email: `${username}@example.com`, password: "correct horse", name: "Made", gender: "male", age: 30, country_code: "DE", adult: true }),
  });
  const body = (await r.json()) as { token: string; user: { id: number } };
  if (r.status !== 201) throw new Error(`register failed: ${r.status}`);
  await transaction(t.ctx.db, (tx) => tx.update(users).set({ createdAt: Date.now() - 48 * HOUR }).where(eq(users.id, body.user.id)));
  return { id: body.user.id, token: body.token };
}

const socketOf = (p: Person): Promise<TestSocket> => connect(t.wsUrl, p.token, { "x-forwarded-for": p.address, cookie: p.cookie });

/** POST /api/reports over the network, from the person's address and device. */
async function report(p: Person, body: Record<string, unknown>) {
  const r = await fetch(`${t.url}/api/reports`, {
    method: "POST",
    headers: { authorization: `Bearer ${p.token}`, "content-type": "application/json", "x-forwarded-for": p.address, cookie: p.cookie },
    body: JSON.stringify(body),
  });
  return { status: r.status, body: (await r.json()) as { report: { id: number } } };
}

const reportProfile = (p: Person, target: Person) => report(p, { reportedUserId: target.id, context: "profile", reason: "sexual_content" });
const suspendedAt = async (id: number) => (await t.ctx.db.select().from(users).where(eq(users.id, id)).limit(1))[0]!.rouletteSuspendedAt;
const stored = async (id: number) => (await t.ctx.db.select().from(reports).where(eq(reports.id, id)).limit(1))[0]!;

/** A conversation: `p` writes one message to `target`. */
async function converse(p: Person, target: Person) {
  const s = await socketOf(p);
  expect((await s.ask("send_message", { receiverId: target.id, content: "hi", messageType: "text" })).error).toBeUndefined();
  s.close();
}

describe("reports from people who never met the reported person", () => {
  test("three day-old accounts from one address who never met the user do not suspend them; the reports reach moderators, weighing nothing", async () => {
    const victim = await account("192.0.2.1");
    const attackers = [await account("203.0.113.9", { old: true }), await account("203.0.113.9", { old: true }), await account("203.0.113.9", { old: true })];
    for (const a of attackers) {
      const r = await reportProfile(a, victim);
      expect(r.status).toBe(201);
      expect(await stored(r.body.report.id)).toMatchObject({ reportedId: victim.id, status: "open", reason: "sexual_content", weight: 0 });
    }
    expect(await suspendedAt(victim.id)).toBeNull();
  });

  test("one day-old account plus four fresh registrations, or plus eight guests, all from different addresses and devices, do not suspend a user none of them met", async () => {
    const victim = await account("192.0.2.2");
    const first = [await account("203.0.113.20", { old: true })];
    for (let i = 0; i < 4; i++) first.push(await account(`203.0.113.${21 + i}`));
    for (const a of first) expect((await reportProfile(a, victim)).status).toBe(201);
    expect(await suspendedAt(victim.id)).toBeNull();

    const other = await account("192.0.2.3");
    const second = [await account("203.0.113.30", { old: true })];
    for (let i = 0; i < 8; i++) second.push(await guest(`203.0.113.${31 + i}`));
    for (const a of second) expect((await reportProfile(a, other)).status).toBe(201);
    expect(await suspendedAt(other.id)).toBeNull();
  });

  test("a call that only rang is no meeting", async () => {
    const victim = await account("192.0.2.4");
    const caller = await account("203.0.113.40", { old: true });
    const sv = await socketOf(victim);
    const sc = await socketOf(caller);
    sc.send("call_user", { receiverId: victim.id, callerPeerId: "peer-caller" });
    await sv.next("incoming_call");
    sv.send("reject_call", { callerId: caller.id });
    await sc.next("call_rejected");
    const r = await report(caller, { reportedUserId: victim.id, context: "call", reason: "sexual_content" });
    expect((await stored(r.body.report.id)).weight).toBe(0);
    sv.close();
    sc.close();
  });
});

describe("reports from people who met the reported person", () => {
  test("three accounts from one address that each wrote to the user count as one reporter", async () => {
    const victim = await account("192.0.2.10");
    const crowd = [await account("203.0.113.50", { old: true }), await account("203.0.113.50", { old: true }), await account("203.0.113.50", { old: true })];
    for (const a of crowd) {
      await converse(a, victim);
      const r = await reportProfile(a, victim);
      expect((await stored(r.body.report.id)).weight).toBe(1);
    }
    expect(await suspendedAt(victim.id)).toBeNull();
  });

  test("three accounts of one device, from three addresses, that each wrote to the user count as one reporter", async () => {
    const victim = await account("192.0.2.11");
    const cookie = newDevice();
    const crowd = [await account("203.0.113.61", { old: true, cookie }), await account("203.0.113.62", { old: true, cookie }), await account("203.0.113.63", { old: true, cookie })];
    for (const a of crowd) {
      await converse(a, victim);
      expect((await reportProfile(a, victim)).status).toBe(201);
    }
    expect(await suspendedAt(victim.id)).toBeNull();
  });

  test("three day-old accounts made on one address count as one reporter, even reporting from three other networks and devices", async () => {
    const victim = await account("192.0.2.13");
    const crowd: Person[] = [];
    for (let i = 0; i < 3; i++) {
      const made = await registeredFrom("203.0.113.80");
      crowd.push({ ...made, address: `198.51.100.${81 + i}`, cookie: newDevice() });
    }
    for (const a of crowd) {
      await converse(a, victim);
      const r = await reportProfile(a, victim);
      expect((await stored(r.body.report.id)).weight).toBe(1);
    }
    expect(await suspendedAt(victim.id)).toBeNull();
  });

  test("a report keeps a keyed hash of the reporter's network and their device, never the address", async () => {
    const victim = await account("192.0.2.12");
    const reporter = await account("203.0.113.70", { old: true });
    await converse(victim, reporter);
    const r = await reportProfile(reporter, victim);
    const row = await stored(r.body.report.id);
    expect(row.weight).toBe(1);
    expect(row.reporterAddressHash).toBe(addressHash(t.ctx.config.secret, "203.0.113.70"));
    expect(row.reporterDeviceId).toBe(reporter.cookie.slice("did=".length));
    expect(JSON.stringify(row)).not.toContain("203.0.113.70");
  });

  test("three people from distinct addresses and devices, who met the user in roulette, in a call and in a conversation, suspend them", async () => {
    const victim = await account("192.0.2.20");
    const sv = await socketOf(victim);

    // An answered call (first: from a roulette search on, strangers see the victim offline until
    // this visit ends, and a call from a stranger answers "offline"; realtime/public-presence.ts).
    const caller = await account("198.51.100.22", { old: true });
    const sc = await socketOf(caller);
    sc.send("call_user", { receiverId: victim.id, callerPeerId: "peer-caller" });
    await sv.next("incoming_call");
    sv.send("answer_call", { callerId: caller.id, answererPeerId: "peer-victim" });
    await sc.next("call_answered");
    sc.send("end_call", { receiverId: victim.id });
    await sv.next("call_ended");
    const r2 = await report(caller, { reportedUserId: victim.id, context: "call", reason: "sexual_content" });
    expect((await stored(r2.body.report.id)).weight).toBe(1);

    // Roulette: reported by the pairing's id.
    const stranger = await account("198.51.100.21", { old: true });
    const ss = await socketOf(stranger);
    await sv.ask("roulette_search", { userId: victim.id, filters: { gender: "any", country: "any" } });
    expect((await ss.ask("roulette_search", { userId: stranger.id, filters: { gender: "any", country: "any" } })).data.status).toBe("paired");
    const pairing = (await ss.next("roulette_partner_found")).data.partner.id as string;
    await sv.next("roulette_partner_found");
    const r1 = await report(stranger, { rouletteId: pairing, context: "roulette", reason: "sexual_content" });
    expect(r1.status).toBe(201);
    expect((await stored(r1.body.report.id)).weight).toBe(1);
    await sv.next("roulette_partner_next");
    expect(await suspendedAt(victim.id)).toBeNull();

    // A conversation: the victim wrote to them.
    const correspondent = await account("198.51.100.23", { old: true });
    await converse(victim, correspondent);
    const r3 = await report(correspondent, { reportedUserId: victim.id, context: "chat", reason: "underage" });
    expect((await stored(r3.body.report.id)).weight).toBe(1);

    expect(await suspendedAt(victim.id)).toBeNumber();
    const refused = await sv.ask("roulette_search", { userId: victim.id, filters: { gender: "any", country: "any" } });
    expect(refused.error?.code).toBe("suspended");
    sv.close();
    ss.close();
    sc.close();
  });
});
