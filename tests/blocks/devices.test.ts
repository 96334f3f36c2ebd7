// Issue 18, item 5: a block and a roulette suspension follow the person's browser (the `did`
// device cookie), as bans do. New accounts (register and guest) made from a browser that a blocked
// or suspended account used are blocked by the same people and suspended alike, and see exactly
// what any blocked or suspended account sees.
import { transaction } from "../../src/storage/index.ts";
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { reports, users } from "../../src/storage/tables.ts";
import { MAX_CARRIERS, recordDevice } from "../../src/auth/user-devices.ts";
import { liftRouletteSuspension, suspendRoulette } from "../../src/moderation/actions.ts";
import { forgetUser } from "../../src/users/cache.ts";
import { staff } from "../support/moderation.ts";
import { createGuest, idsOf, registerUser } from "../support/app.ts";
import { connectedUser, listeningApp } from "../support/listening.ts";
import { connect, type TestSocket } from "../support/ws.ts";
import { rouletteSearch } from "../support/roulette.ts";

setDefaultTimeout(20_000);

const t = listeningApp({ SIGNUP_RATE_LIMIT: "1000", PRESENCE_GRACE_SECONDS: "0" });

const newDevice = () => randomBytes(24).toString("base64url");
const fromDevice = (device: string) => ({ cookie: `did=${device}` });

/** A registered account made in the browser `device`. */
async function registeredOn(device: string) {
  const suffix = randomBytes(4).toString("hex");
  const r = await t.call("POST", "/api/auth/register", {
    headers: fromDevice(device),
    json: { username: `dev_${suffix}`, email: `dev_${suffix}@example.com`, password: "correct horse", name: `Dev ${suffix}`, gender: "male", age: 30, country_code: "DE", adult: true },
  });
  expect(r.status).toBe(201);
  return { token: r.body.token as string, user: r.body.user as { id: number; name: string } };
}

/** A guest made in the browser `device`. */
const guestOn = (device: string) => createGuest(t, "male", fromDevice(device));

const listOf = async (token: string) => idsOf((await t.call("GET", "/api/users?limit=500", { token })).body.users);
const profile = (token: string, id: number) => t.call("GET", `/api/users/${id}`, { token }).then((r) => ({ status: r.status, body: r.body }));
const write = (s: TestSocket, to: number) => s.ask("send_message", { receiverId: to, content: "it's me again" }).then((f) => f.error);

describe("a block follows the blocked person's browser", () => {
  test("a guest made there cannot message the blocker, reads 404 for their profile, and neither sees the other", async () => {
    const device = newDevice();
    const blocker = await connectedUser(t, { name: "Blocker Bo" });
    const blocked = await registeredOn(device);
    await t.call("POST", "/api/blocks", { token: blocker.token, json: { userId: blocked.user.id } });
    const guest = await guestOn(device);
    const [oldSocket, newSocket] = await Promise.all([connect(t.wsUrl, blocked.token), connect(t.wsUrl, guest.token)]);

    // Exactly what the blocked account itself is answered.
    expect(await write(newSocket, blocker.user.id)).toEqual({ code: "blocked", message: "You can't message this person" });
    expect(await write(newSocket, blocker.user.id)).toEqual(await write(oldSocket, blocker.user.id));
    expect(await profile(guest.token, blocker.user.id)).toEqual(await profile(blocked.token, blocker.user.id));
    expect((await profile(guest.token, blocker.user.id)).status).toBe(404);
    expect(await listOf(guest.token)).not.toContain(blocker.user.id);
    expect(await listOf(blocker.token)).not.toContain(guest.user.id);
    // The blocker's own messages are refused too, and their list names only the person they blocked.
    expect((await write(blocker.s, guest.user.id))?.code).toBe("blocked");
    const mine = await t.call("GET", "/api/blocks", { token: blocker.token });
    expect({ users: idsOf(mine.body.users), strangers: mine.body.strangers }).toEqual({ users: [blocked.user.id], strangers: 0 });
    for (const s of [oldSocket, newSocket, blocker.s]) s.close();
  });

  test("the new account hears no presence of the blocker, even when it watches their id", async () => {
    const device = newDevice();
    const blocker = await connectedUser(t);
    const blocked = await registeredOn(device);
    await t.call("POST", "/api/blocks", { token: blocker.token, json: { userId: blocked.user.id } });
    const guest = await guestOn(device);
    const [guestSocket, witness] = await Promise.all([connect(t.wsUrl, guest.token), connectedUser(t)]);
    for (const s of [guestSocket, witness.s]) await s.ask("presence_watch", { userIds: [blocker.user.id] });
    blocker.s.close();
    await witness.s.next("user_offline", undefined, (f) => f.data.userId === blocker.user.id);
    expect(await guestSocket.silent("user_offline", witness.s)).toBe(true);
    const back = await connect(t.wsUrl, blocker.token);
    await witness.s.next("user_online", undefined, (f) => f.data.userId === blocker.user.id);
    expect(await guestSocket.silent("user_online", back, witness.s)).toBe(true);
    for (const s of [guestSocket, witness.s, back]) s.close();
  });

  test("an account registered there is blocked alike", async () => {
    const device = newDevice();
    const blocker = await connectedUser(t);
    const blocked = await registeredOn(device);
    await t.call("POST", "/api/blocks", { token: blocker.token, json: { userId: blocked.user.id } });
    const again = await registeredOn(device);
    const s = await connect(t.wsUrl, again.token);
    expect((await write(s, blocker.user.id))?.code).toBe("blocked");
    expect((await profile(again.token, blocker.user.id)).status).toBe(404);
    for (const x of [s, blocker.s]) x.close();
  });

  test("unblocking the person lifts what their browser carried", async () => {
    const device = newDevice();
    const blocker = await connectedUser(t);
    const blocked = await registeredOn(device);
    await t.call("POST", "/api/blocks", { token: blocker.token, json: { userId: blocked.user.id } });
    const guest = await guestOn(device);
    expect((await t.call("DELETE", `/api/blocks/${blocked.user.id}`, { token: blocker.token })).status).toBe(204);
    const s = await connect(t.wsUrl, guest.token);
    expect(await write(s, blocker.user.id)).toBeUndefined();
    expect((await profile(guest.token, blocker.user.id)).status).toBe(200);
    for (const x of [s, blocker.s]) x.close();
  });

  test("a guest from another browser is not touched, and the no-JavaScript guest form carries the block too", async () => {
    const device = newDevice();
    const blocker = await connectedUser(t);
    const blocked = await registeredOn(device);
    await t.call("POST", "/api/blocks", { token: blocker.token, json: { userId: blocked.user.id } });
    const elsewhere = await guestOn(newDevice());
    expect((await profile(elsewhere.token, blocker.user.id)).status).toBe(200);

    const form = await t.call("POST", "/auth/guest", {
      headers: { ...fromDevice(device), "content-type": "application/x-www-form-urlencoded" },
      body: "gender=male&adult=on",
    });
    expect(form.status).toBe(303);
    const sid = /sid=([^;]+)/.exec(form.headers.get("set-cookie") ?? "")?.[1];
    expect(sid).toBeDefined();
    expect((await profile(decodeURIComponent(sid!), blocker.user.id)).status).toBe(404);
    blocker.s.close();
  });

  test(`a new account carries at most ${MAX_CARRIERS} earlier accounts, and throwaway accounts made in the browser do not push the blocked one out`, async () => {
    const device = newDevice();
    const blocker = await connectedUser(t);
    const first = await guestOn(device);
    await t.call("POST", "/api/blocks", { token: blocker.token, json: { userId: first.user.id } });
    // Throwaway accounts from elsewhere, signed in here (recordDevice is what every new session
    // runs), and guests made here: all newer than the blocked one.
    for (let i = 0; i < MAX_CARRIERS; i++) {
      await recordDevice(t.ctx.db, (await guestOn(newDevice())).user.id, device);
      await guestOn(device);
    }
    const late = await guestOn(device);
    expect(t.ctx.blocks.carriersOf(late.user.id).length).toBe(MAX_CARRIERS);
    expect(t.ctx.blocks.carriersOf(late.user.id)).toContain(first.user.id);
    expect((await profile(late.token, blocker.user.id)).status).toBe(404);
    blocker.s.close();
  });
});

describe("a roulette suspension follows the suspended person's browser", () => {
  test("a guest made there is answered `suspended` exactly as an automatically suspended account is, until a moderator lifts it", async () => {
    const mod = await staff(t, "moderator");
    const device = newDevice();
    const suspended = await registeredOn(device);
    const other = await registerUser(t);
    // The automatic suspension, as reports would set it.
    for (const who of [suspended, other]) {
      await transaction(t.ctx.db, (tx) => tx.update(users).set({ rouletteSuspendedAt: Date.now() }).where(eq(users.id, who.user.id)));
      forgetUser(t.ctx.db, who.user.id);
    }
    const guest = await guestOn(device);
    const [guestSocket, otherSocket] = await Promise.all([connect(t.wsUrl, guest.token), connect(t.wsUrl, other.token)]);
    const refused = await rouletteSearch(guestSocket, guest.user.id);
    expect(refused.error?.code).toBe("suspended");
    expect(refused.error).toEqual((await rouletteSearch(otherSocket, other.user.id)).error);

    await liftRouletteSuspension(t.ctx, mod.actor, suspended.user.id, "Reviewed the reports");
    expect((await rouletteSearch(guestSocket, guest.user.id)).data).toEqual({ status: "searching" });
    await guestSocket.ask("roulette_stop_search", { userId: guest.user.id });
    for (const s of [guestSocket, otherSocket]) s.close();
  });

  test("a moderator's suspension is carried without its reason", async () => {
    const mod = await staff(t, "moderator");
    const device = newDevice();
    const suspended = await registeredOn(device);
    await suspendRoulette(t.ctx, mod.actor, suspended.user.id, { hours: 2, reason: "Nudity on camera" });
    const guest = await guestOn(device);
    const s = await connect(t.wsUrl, guest.token);
    const refused = await rouletteSearch(s, guest.user.id);
    expect(refused.error?.code).toBe("suspended");
    expect(JSON.stringify(refused)).not.toContain("Nudity");
    s.close();
  });

  test("a guest made before the suspension is taken out of the queue when it comes", async () => {
    const device = newDevice();
    const person = await registeredOn(device);
    const guest = await guestOn(device);
    const s = await connect(t.wsUrl, guest.token);
    expect((await rouletteSearch(s, guest.user.id)).data).toEqual({ status: "searching" });
    const reporters = await Promise.all([0, 1, 2].map(() => registerUser(t)));
    // Established reporters (older than a day), filed straight into the table, then the rule applied.
    const { checkSuspension } = await import("../../src/reports/suspension.ts");
    for (const r of reporters) {
      await transaction(t.ctx.db, (tx) => tx.update(users).set({ createdAt: Date.now() - 2 * 86_400_000 }).where(eq(users.id, r.user.id)));
      await transaction(t.ctx.db, (tx) => tx
        .insert(reports)
        .values({ reporterId: r.user.id, reportedId: person.user.id, context: "chat", reason: "sexual_content", weight: 1, status: "open", createdAt: Date.now(), updatedAt: Date.now() }));
    }
    expect(await checkSuspension(t.ctx, person.user.id, Date.now())).toBe(true);
    expect((await s.next("error")).data.code).toBe("suspended");
    expect(t.ctx.roulette.isWaiting(guest.user.id)).toBe(false);
    expect((await rouletteSearch(s, guest.user.id)).error?.code).toBe("suspended");
    s.close();
  });
});

describe("roulette keeps a new account of the browser apart too", () => {
  test("a stranger blocked in roulette is not paired again with a guest made in their browser", async () => {
    const device = newDevice();
    const blocker = await connectedUser(t);
    const stranger = await registeredOn(device);
    const strangerSocket = await connect(t.wsUrl, stranger.token);
    await rouletteSearch(blocker.s, blocker.user.id);
    expect((await rouletteSearch(strangerSocket, stranger.user.id)).data).toEqual({ status: "paired" });
    const rouletteId = (await blocker.s.next("roulette_partner_found")).data.partner.id as string;
    expect((await t.call("POST", "/api/blocks", { token: blocker.token, json: { rouletteId } })).status).toBe(201);
    await strangerSocket.next("roulette_partner_disconnected");

    const guest = await guestOn(device);
    const guestSocket = await connect(t.wsUrl, guest.token);
    expect((await rouletteSearch(guestSocket, guest.user.id)).data).toEqual({ status: "searching" });
    expect((await rouletteSearch(blocker.s, blocker.user.id)).data).toEqual({ status: "searching" });
    for (const [s, id] of [[guestSocket, guest.user.id], [blocker.s, blocker.user.id]] as const) await s.ask("roulette_stop_search", { userId: id });
    for (const s of [guestSocket, blocker.s, strangerSocket]) s.close();
  });
});
