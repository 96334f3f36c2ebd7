// The views each instance answers from memory, across two instances (issue 23): who is present
// for a call (`hub.isPresent`), who is shown online to strangers (`hub.isShown`, the batched
// public presence) and whether a callee is in Video Roulette (rung silently) are the same on both
// instances, wherever the user's tabs are. Two whole apps over one Redis and one storage.
import { beforeAll, describe, expect, test } from "bun:test";
import { registerUser, type TestApp } from "../support/app.ts";
import { rouletteSearch } from "../support/roulette.ts";
import { matchmakerChosen, twoInstancesForFile } from "../support/two-instances.ts";
import { until } from "../support/until.ts";
import { about, DEFAULT_WAIT_MS, settled } from "../support/ws.ts";

const RING_MS = 2000;
const ENV = { PRESENCE_GRACE_SECONDS: "0", SIGNUP_RATE_LIMIT: "1000", CALL_RING_SECONDS: String(RING_MS / 1000) };

const { a, b, tab } = twoInstancesForFile(ENV);
beforeAll(() => matchmakerChosen(a, b));

/** Country codes of their own per test, so the roulette searches of one test never meet another's. */
const person = (app: TestApp, country = "DE") => registerUser(app, { country_code: country });

const everywhere = (check: (app: TestApp) => boolean) => check(a) && check(b);

describe("views across two instances", () => {
  test("who is present for a call: A answers for a callee whose only tab is on B, logged out and back, and the call answers as on one instance", async () => {
    const caller = await person(a);
    const callee = await person(b);
    const c = await tab(a, caller);
    const r = await tab(b, callee);
    await c.ask("send_message", { receiverId: callee.user.id, content: "may I call?", messageType: "text" });
    await until(() => everywhere((app) => app.ctx.contacts.talked(callee.user.id, caller.user.id)), "the conversation known everywhere");

    await until(() => a.ctx.hub.isPresent(callee.user.id), "A sees the callee present on B");
    expect(a.ctx.hub.socketsOf(callee.user.id)).toEqual([]);

    // `user_logout` from the only tab: nobody a call can reach, on either instance.
    await r.ask("user_logout");
    await until(() => !a.ctx.hub.isPresent(callee.user.id) && !b.ctx.hub.isPresent(callee.user.id), "absent everywhere after the logout");
    expect((await c.ask("call_user", { receiverId: callee.user.id, callerPeerId: "p-off" })).data).toEqual({ status: "offline" });
    expect((await c.next("call_rejected")).data).toEqual({ reason: "offline" });

    await r.ask("user_back_online");
    await until(() => a.ctx.hub.isPresent(callee.user.id), "present again, seen from A");
    expect((await c.ask("call_user", { receiverId: callee.user.id, callerPeerId: "p-on" })).data).toEqual({ status: "ringing" });
    expect((await r.next("incoming_call")).data.callerId).toBe(caller.user.id);
    expect((await c.ask("end_call", { receiverId: callee.user.id })).data).toEqual({ ended: true });
    await r.next("call_ended");
  });

  test("shown to strangers: both copies follow tabs on either instance, including a departure announced by the instance that never showed the arrival", async () => {
    const subject = await person(a);
    const stranger = await person(a);
    const watcher = await tab(a, stranger);
    await watcher.ask("presence_watch", { userIds: [subject.user.id] });

    // Arrives on A: A announces and publishes it; B's copy hears it.
    const first = await tab(a, subject);
    await until(() => everywhere((app) => app.ctx.hub.isShown(subject.user.id)), "shown on both instances");
    await watcher.next("user_online", DEFAULT_WAIT_MS, about(subject.user.id));

    // Moves to B (a tab there, the one on A closed): still online, nothing announced.
    const second = await tab(b, subject);
    first.close();
    await until(() => a.ctx.hub.socketsOf(subject.user.id).length === 0, "the tab on A gone");
    await Promise.all([a.ctx.ports.settled(), b.ctx.ports.settled()]);
    expect(everywhere((app) => app.ctx.hub.isShown(subject.user.id))).toBe(true);

    // Leaves from B: B announces the departure, and must know the arrival was shown to publish it.
    second.close();
    await until(() => everywhere((app) => !app.ctx.hub.isShown(subject.user.id)), "shown offline on both instances");
    await watcher.next("user_offline", DEFAULT_WAIT_MS, about(subject.user.id));
    // The users row, which lists and profiles read, says so too (written with B's batch).
    const shownInRow = async () => (await a.call("GET", `/api/users/${subject.user.id}`, { token: stranger.token })).body.user.is_online;
    await until(async () => (await shownInRow()) === false, "the users row offline", DEFAULT_WAIT_MS, 200);

    // A stranger's call from A answers "offline", as on one instance.
    expect((await watcher.ask("call_user", { receiverId: subject.user.id, callerPeerId: "p-s" })).data).toEqual({ status: "offline" });
  });

  test("a callee searching in Video Roulette on B is rung silently from A: ringing, then no answer, and the roulette tab hears nothing", async () => {
    const caller = await person(a, "IS");
    const callee = await person(b, "IS");
    const c = await tab(a, caller);
    const r = await tab(b, callee);
    await c.ask("send_message", { receiverId: callee.user.id, content: "hello", messageType: "text" });
    await until(() => everywhere((app) => app.ctx.contacts.talked(callee.user.id, caller.user.id)), "the conversation known everywhere");
    await until(() => a.ctx.hub.isPresent(callee.user.id), "present, seen from A");

    expect((await rouletteSearch(r, callee.user.id, { gender: "any", country: "IS" })).data.status).toBe("searching");
    expect(a.ctx.roulette.socketOf(callee.user.id)).toBeUndefined();

    expect((await c.ask("call_user", { receiverId: callee.user.id, callerPeerId: "p-r" })).data).toEqual({ status: "ringing" });
    expect((await c.next("call_rejected", RING_MS + DEFAULT_WAIT_MS)).data).toEqual({ reason: "no_answer" });
    // The ring-out's frames to the callee (if any) leave B before this pong.
    expect(await r.silent("incoming_call", c)).toBe(true);
    expect(r.frames.some((f) => f.event === "call_ended")).toBe(false);
    expect(b.ctx.roulette.isWaiting(callee.user.id)).toBe(true);

    // Out of roulette, the same call rings aloud again (the question is asked each time).
    await r.ask("roulette_stop_search", {});
    await until(() => !b.ctx.roulette.isWaiting(callee.user.id), "out of the roulette line");
    expect((await c.ask("call_user", { receiverId: callee.user.id, callerPeerId: "p-r2" })).data).toEqual({ status: "ringing" });
    expect((await r.next("incoming_call")).data.callerId).toBe(caller.user.id);
    await c.ask("end_call", { receiverId: callee.user.id });
    await settled(c, r);
  }, 30_000);

  test("a callee paired in Video Roulette on B, with a partner on A, is rung silently from A too; nothing waits afterwards", async () => {
    const caller = await person(a, "LU");
    const callee = await person(b, "LU");
    const partner = await person(a, "LU");
    const c = await tab(a, caller);
    const r = await tab(b, callee);
    const p = await tab(a, partner);
    await c.ask("send_message", { receiverId: callee.user.id, content: "hello", messageType: "text" });
    await until(() => everywhere((app) => app.ctx.contacts.talked(callee.user.id, caller.user.id)), "the conversation known everywhere");
    await until(() => a.ctx.hub.isPresent(callee.user.id), "present, seen from A");

    const only = { gender: "any", country: "LU" };
    expect((await rouletteSearch(r, callee.user.id, only)).data.status).toBe("searching");
    expect((await rouletteSearch(p, partner.user.id, only)).data.status).toBe("paired");
    await r.next("roulette_partner_found");
    await p.next("roulette_partner_found");

    expect((await c.ask("call_user", { receiverId: callee.user.id, callerPeerId: "p-paired" })).data).toEqual({ status: "ringing" });
    expect((await c.next("call_rejected", RING_MS + DEFAULT_WAIT_MS)).data).toEqual({ reason: "no_answer" });
    expect(await r.silent("incoming_call", c)).toBe(true);
    expect(b.ctx.roulette.partnerOf(callee.user.id)).toBe(partner.user.id);
    expect(p.frames.some((f) => f.event?.startsWith("roulette_partner_"))).toBe(false);
    for (const app of [a, b]) expect((app.ctx.calls as unknown as { copied: { asks: number } }).copied.asks).toBe(0);
  }, 30_000);
});
