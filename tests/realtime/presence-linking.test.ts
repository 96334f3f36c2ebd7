// Issue 18, item 2: presence must not link a Video Roulette partner to an account. A stranger
// (a watcher without a conversation, the people list, a profile, a call) learns of a change only
// at the next batch; the people in a conversation with the user hear it at once.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { Hub } from "../../src/realtime/hub.ts";
import { HIDE_MAX_MS, PublicPresence } from "../../src/realtime/public-presence.ts";
import { registerUser } from "../support/app.ts";
import { connectedUser, type ConnectedUser, listeningApp } from "../support/listening.ts";
import { about, connect, DEFAULT_WAIT_MS, settled, type Frame, type TestSocket } from "../support/ws.ts";
import { afterTimers, until } from "../support/until.ts";
import { fakeSocket } from "../support/fake-socket.ts";

// Registering hashes passwords: slow on a busy machine.
setDefaultTimeout(90_000);

// The default batches (a tick every 30 to 60 s), so no tick falls inside a test unless the test
// makes one with flushShown(); a short grace and ring keep the waits short.
const GRACE_MS = 1000;
const t = listeningApp({ PRESENCE_BATCH_SECONDS: "30:60", PRESENCE_GRACE_SECONDS: "1", CALL_RING_SECONDS: "4", SIGNUP_RATE_LIMIT: "1000" });

const heard = (s: TestSocket, event: string, userId: number) => s.frames.some((f) => f.event === event && about(userId)(f));
/**
 * A marker for "the grace of a socket closed before now has passed": someone in a conversation with
 * `listener` is connected now and, on passed(), closes and is awaited offline by `listener`. Grace
 * timers fire in the order they are due, so every grace that started earlier has ended by then.
 */
async function graceMarker(listener: ConnectedUser) {
  const marker = await connectedUser(t);
  expect((await marker.s.ask("send_message", { receiverId: listener.user.id, content: "marker" })).error).toBeUndefined();
  return {
    async passed() {
      marker.s.close();
      await listener.s.next("user_offline", GRACE_MS + DEFAULT_WAIT_MS, about(marker.user.id));
    },
  };
}

/** Numbers on both engines (PostgreSQL gives a boolean and a bigint string). */
const row = async (id: number) => {
  const [found] = await t.sql<{ is_online: number | boolean; last_seen: number | string }>("SELECT is_online, last_seen FROM users WHERE id = ?", id);
  return { is_online: Number(found!.is_online), last_seen: Number(found!.last_seen) };
};

describe("presence and Video Roulette cannot be timed against each other", () => {
  test("a roulette partner who leaves is not followed by a watcher's user_offline at the end of the grace, nor by any list, profile or call", async () => {
    const registered = await registerUser(t, { name: "Vic Tim", gender: "female", country_code: "FR", age: 33 });
    const attacker = await connectedUser(t, { gender: "male", country_code: "FR", age: 35 });
    const dialer = await connectedUser(t);
    await attacker.s.ask("presence_watch", { userIds: [registered.user.id] });
    // Counted by the server once connected (connect waits for that), so the batch below finds the victim online.
    const victim = { ...registered, s: await connect(t.wsUrl, registered.token) };
    // A batch shows the victim online before the pairing, as it would after a while.
    t.ctx.hub.flushShown();
    expect((await attacker.s.next("user_online", undefined, about(victim.user.id))).data).toEqual({ userId: victim.user.id, name: "Vic Tim" });
    const shownAt = (await row(victim.user.id)).last_seen;

    await attacker.s.ask("roulette_search", { userId: attacker.user.id, filters: { gender: "any", country: "any" } });
    await victim.s.ask("roulette_search", { userId: victim.user.id, filters: { gender: "any", country: "any" } });
    await attacker.s.next("roulette_partner_found");
    const marker = await graceMarker(dialer);
    victim.s.close();
    await attacker.s.next("roulette_partner_disconnected");
    const left = Date.now();

    // Past the grace, when presence used to say it: nothing about the victim anywhere.
    await marker.passed();
    await settled(attacker.s);
    expect(heard(attacker.s, "user_offline", victim.user.id)).toBe(false);
    // (The victim is shown offline at a random time after the search, not at the session's end.)
    const profile = await t.call("GET", `/api/users/${victim.user.id}`, { token: attacker.token });
    expect(profile.body.user.is_online).toBe(true);
    expect(Date.parse(profile.body.user.last_seen)).toBe(shownAt);
    const list = await t.call("GET", "/api/users?online=1&limit=500", { token: attacker.token });
    expect(list.body.users.some((u: { id: number }) => u.id === victim.user.id)).toBe(true);
    // A call is no quicker a clock: it rings (silently, nobody is there) and ends as no answer.
    expect((await dialer.s.ask("call_user", { receiverId: victim.user.id, callerPeerId: "p1" })).data).toEqual({ status: "ringing" });
    expect((await dialer.s.next("call_rejected")).data).toEqual({ reason: "no_answer" });

    // The next batch says it, in the contract's shape, with the batch's time as last_seen.
    t.ctx.hub.flushShown();
    expect((await attacker.s.next("user_offline", undefined, about(victim.user.id))).data).toEqual({ userId: victim.user.id, name: "Vic Tim" });
    expect((await row(victim.user.id)).is_online).toBe(0);
    expect((await row(victim.user.id)).last_seen).toBeGreaterThan(left + GRACE_MS);
    attacker.s.close();
    dialer.s.close();
  });

  test("people in a conversation with a user (either way) hear their presence at once; a watcher without one hears it with the batch", async () => {
    const ann = await registerUser(t, { name: "Ann Writer" });
    const friend = await connectedUser(t);
    const fan = await connectedUser(t);
    const watcher = await connectedUser(t);
    await watcher.s.ask("presence_watch", { userIds: [ann.user.id] });
    const a1 = await connect(t.wsUrl, ann.token);
    expect((await a1.ask("send_message", { receiverId: friend.user.id, content: "hi friend" })).error).toBeUndefined();
    expect((await fan.s.ask("send_message", { receiverId: ann.user.id, content: "hi Ann, we never met" })).error).toBeUndefined();
    t.ctx.hub.flushShown();
    await watcher.s.next("user_online", undefined, about(ann.user.id));
    a1.close();
    await friend.s.next("user_offline", GRACE_MS + 2000, about(ann.user.id));
    await fan.s.next("user_offline", undefined, about(ann.user.id));
    t.ctx.hub.flushShown();
    await watcher.s.next("user_offline", undefined, about(ann.user.id));

    const a2 = await connect(t.wsUrl, ann.token);
    expect((await friend.s.next("user_online", undefined, about(ann.user.id))).data.name).toBe("Ann Writer");
    expect((await fan.s.next("user_online", undefined, about(ann.user.id))).data.name).toBe("Ann Writer");
    // A ping answered after both frames above marks the point by which the watcher would have heard.
    await watcher.s.ask("ping", {});
    expect(heard(watcher.s, "user_online", ann.user.id)).toBe(false);
    t.ctx.hub.flushShown();
    await watcher.s.next("user_online", undefined, about(ann.user.id));
    a2.close();
    friend.s.close();
    fan.s.close();
    watcher.s.close();
  });

  test("someone who starts Video Roulette before a batch showed them arrive is never shown online to strangers that visit, and is on the next", async () => {
    const registered = await registerUser(t, { name: "Ro Ulette" });
    const watcher = await connectedUser(t);
    const dialer = await connectedUser(t);
    await watcher.s.ask("presence_watch", { userIds: [registered.user.id] });
    t.ctx.hub.flushShown();
    const first = await connect(t.wsUrl, registered.token);
    await first.ask("roulette_search", { userId: registered.user.id, filters: { gender: "any", country: "any" } });
    t.ctx.hub.flushShown();
    await settled(watcher.s);
    expect(heard(watcher.s, "user_online", registered.user.id)).toBe(false);
    expect((await t.call("GET", `/api/users/${registered.user.id}`, { token: watcher.token })).body.user.is_online).toBe(false);
    expect((await dialer.s.ask("call_user", { receiverId: registered.user.id, callerPeerId: "p1" })).data).toEqual({ status: "offline" });
    const marker = await graceMarker(dialer);
    first.close();
    await marker.passed();
    t.ctx.hub.flushShown();
    await settled(watcher.s);
    expect(heard(watcher.s, "user_offline", registered.user.id)).toBe(false);

    // Counted once connected (connect waits for that), then shown by the batch.
    const again = await connect(t.wsUrl, registered.token);
    t.ctx.hub.flushShown();
    expect((await watcher.s.next("user_online", undefined, about(registered.user.id))).data).toEqual({ userId: registered.user.id, name: "Ro Ulette" });
    again.close();
    watcher.s.close();
    dialer.s.close();
  });
});

describe("hiding a roulette visit from strangers", () => {
  function recorder(random = () => 0.5) {
    const published: [number, boolean][] = [];
    const shown = new PublicPresence({ minMs: 60_000, maxMs: 60_000 }, (changes) => published.push(...changes), random);
    return { shown, published };
  }

  test("someone shown online who starts roulette goes offline at a random time within the hiding window, not when the visit ends", () => {
    const { shown, published } = recorder();
    shown.change(1, true);
    shown.flush();
    shown.hide(1);
    // The visit ends: nothing new is due; the offline waits for its own random time.
    shown.change(1, false);
    shown.flush();
    expect(published).toEqual([[1, true]]);
    expect(shown.isShown(1)).toBe(true);
    shown.flush(true);
    expect(published).toEqual([[1, true], [1, false]]);
    expect(HIDE_MAX_MS).toBeGreaterThanOrEqual(5 * 60_000);
    shown.stop();
  });

  test("coming back before the hidden offline is due shows nothing at all, and a later visit is shown as usual", () => {
    const { shown, published } = recorder();
    shown.change(2, true);
    shown.flush();
    shown.hide(2);
    shown.change(2, true);
    shown.change(2, false);
    shown.change(2, true);
    shown.flush(true);
    expect(published).toEqual([[2, true]]);
    shown.hide(3);
    shown.change(3, true);
    shown.flush(true);
    expect(published).toEqual([[2, true]]);
    shown.change(3, false);
    shown.change(3, true);
    shown.flush(true);
    expect(published).toEqual([[2, true], [3, true]]);
    shown.stop();
  });
});


describe("presence batches", () => {
  test("publish only the net change since the last tick, everyone in one batch at one time, and a flap inside a batch never", async () => {
    const hub = new Hub(0, 60_000, { minMs: 40, maxMs: 60 });
    const batches: [number, boolean][][] = [];
    const times: number[] = [];
    hub.onPublicPresence((changes, at) => {
      batches.push([...changes]);
      times.push(at);
    });
    const flapper = fakeSocket(1);
    hub.connect(flapper);
    hub.disconnect(flapper);
    hub.connect(fakeSocket(2));
    hub.connect(fakeSocket(3));
    expect(hub.isShown(2)).toBe(false);
    await until(() => batches.length > 0, "the first batch");
    expect(batches).toEqual([[[2, true], [3, true]]]);
    expect(hub.isShown(2)).toBe(true);
    // A user who comes and goes inside the next batch is not in it either.
    const again = fakeSocket(1);
    hub.connect(again);
    hub.disconnect(again);
    // Due after the hub's next tick (at most a window away): once it fires, that tick has run.
    await afterTimers(60);
    expect(batches).toHaveLength(1);
    expect(times).toHaveLength(1);
    hub.closeAll(1001, "bye");
  });

  test("hold a change at most one window, and publish nothing after shutdown", async () => {
    const hub = new Hub(0, 60_000, { minMs: 20, maxMs: 30 });
    const batches: number[][] = [];
    hub.onPublicPresence((changes) => batches.push([...changes.keys()]));
    hub.connect(fakeSocket(7));
    await until(() => batches.length === 1, "the batch with 7");
    hub.connect(fakeSocket(8));
    await until(() => batches.length === 2, "the batch with 8");
    expect(batches).toEqual([[7], [8]]);
    hub.closeAll(1001, "bye");
    hub.connect(fakeSocket(9));
    // Due after any tick still scheduled (at most a window away).
    await afterTimers(30);
    expect(batches).toEqual([[7], [8]]);
  });
});
