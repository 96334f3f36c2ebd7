// Who hears a presence change (issue 11): the people with a conversation with the user and the
// sockets watching them, never a stranger, never across a block; the online count coalesced.
import { describe, expect, test } from "bun:test";
import { Hub } from "../../src/realtime/hub.ts";
import { registerUser } from "../support/app.ts";
import { connectedUser, listeningApp } from "../support/listening.ts";
import { TokenBuckets } from "../../src/http/rate-limit.ts";
import { about, connect, heardAbout, settled, type TestSocket } from "../support/ws.ts";
import { afterTimers, until } from "../support/until.ts";
import { fakeSocket } from "../support/fake-socket.ts";

// No grace: "offline" is announced at once, so each test waits only for what it expects.
const t = listeningApp({ PRESENCE_GRACE_SECONDS: "0", SIGNUP_RATE_LIMIT: "1000", SOCKET_RATE_LIMIT: "20:40" });



/** Ann comes online in a new socket, once the others are set up. */
async function comesOnline(token: string): Promise<TestSocket> {
  const s = await connect(t.wsUrl, token);
  await s.ask("ping", {});
  return s;
}

describe("who hears a presence change", () => {
  test("a conversation partner and a watcher hear it; a stranger with neither hears nothing", async () => {
    const ann = await registerUser(t, { name: "Ann Known" });
    const partner = await connectedUser(t);
    const watcher = await connectedUser(t);
    const stranger = await connectedUser(t);
    const wrote = await partner.s.ask("send_message", { receiverId: ann.user.id, content: "hi Ann" });
    expect(wrote.error).toBeUndefined();
    expect((await watcher.s.ask("presence_watch", { userIds: [ann.user.id] })).error).toBeUndefined();

    const a = await comesOnline(ann.token);
    expect((await partner.s.next("user_online", undefined, about(ann.user.id))).data).toEqual({ userId: ann.user.id, name: "Ann Known" });
    expect((await watcher.s.next("user_online", undefined, about(ann.user.id))).data.name).toBe("Ann Known");
    a.close();
    await partner.s.next("user_offline", undefined, about(ann.user.id));
    await watcher.s.next("user_offline", undefined, about(ann.user.id));
    // Both were sent to the partner and the watcher before this: the stranger's pong comes after.
    expect(await heardAbout(stranger.s, "user_online", ann.user.id)).toBe(false);
    expect(await heardAbout(stranger.s, "user_offline", ann.user.id)).toBe(false);
    for (const p of [partner, watcher, stranger]) p.s.close();
  });

  test("the receiver of a first message hears the sender's presence from then on, once, in every tab", async () => {
    const bo = await connectedUser(t);
    const cy = await registerUser(t);
    const cyTab1 = await connect(t.wsUrl, cy.token);
    const cyTab2 = await connect(t.wsUrl, cy.token);
    await bo.s.ask("send_message", { receiverId: cy.user.id, content: "first" });
    // Cy both watches Bo and has a conversation with him: still one frame per tab.
    await cyTab1.ask("presence_watch", { userIds: [bo.user.id] });
    bo.s.close();
    for (const tab of [cyTab1, cyTab2]) await tab.next("user_offline", undefined, about(bo.user.id));
    // Besides the one each tab awaited, none: the pongs come after whatever the close sent.
    await settled(cyTab1, cyTab2);
    for (const tab of [cyTab1, cyTab2]) expect(tab.frames.filter((f) => f.event === "user_offline" && about(bo.user.id)(f))).toHaveLength(0);
    cyTab1.close();
    cyTab2.close();
  });

  test("a new watch list replaces the old one: the dropped id is no longer heard", async () => {
    const watcher = await connectedUser(t);
    const kept = await registerUser(t);
    const dropped = await registerUser(t);
    await watcher.s.ask("presence_watch", { userIds: [kept.user.id, dropped.user.id] });
    await watcher.s.ask("presence_watch", { userIds: [String(kept.user.id)] });
    const k = await comesOnline(kept.token);
    const d = await comesOnline(dropped.token);
    await watcher.s.next("user_online", undefined, about(kept.user.id));
    expect(await heardAbout(watcher.s, "user_online", dropped.user.id, d)).toBe(false);
    k.close();
    d.close();
    watcher.s.close();
  });

  test("a block hides presence both ways, from a conversation partner and from a watch", async () => {
    const blocker = await connectedUser(t);
    const blocked = await registerUser(t);
    await blocker.s.ask("send_message", { receiverId: blocked.user.id, content: "before" });
    expect((await t.call("POST", "/api/blocks", { token: blocker.token, json: { userId: blocked.user.id } })).status).toBe(201);
    await blocker.s.ask("presence_watch", { userIds: [blocked.user.id] });
    const b = await comesOnline(blocked.token);
    await b.ask("presence_watch", { userIds: [blocker.user.id] });
    expect(await heardAbout(blocker.s, "user_online", blocked.user.id, b)).toBe(false);
    blocker.s.close();
    await until(() => t.ctx.hub.socketsOf(blocker.user.id).length === 0, "the server handling the blocker's close");
    expect(await heardAbout(b, "user_offline", blocker.user.id)).toBe(false);
    b.close();
  });

});

describe("a hostile presence_watch", () => {
  test("more than 200 ids, non-numbers or no list are refused with a validation error and change nothing", async () => {
    const me = await connectedUser(t);
    const target = await registerUser(t);
    await me.s.ask("presence_watch", { userIds: [target.user.id] });
    const tooMany = Array.from({ length: 201 }, (_, i) => i + 1);
    for (const data of [{ userIds: tooMany }, { userIds: ["abc"] }, { userIds: [1.5] }, { userIds: [{}] }, { userIds: "1,2" }, {}]) {
      expect((await me.s.ask("presence_watch", data)).error?.code).toBe("validation");
    }
    // The list from before the refusals still holds.
    const s = await comesOnline(target.token);
    await me.s.next("user_online", undefined, about(target.user.id));
    expect((await me.s.ask("presence_watch", { userIds: Array.from({ length: 200 }, (_, i) => i + 1) })).error).toBeUndefined();
    s.close();
    me.s.close();
  });

  test("a flood of watch lists is rate limited and keeps one list per socket", async () => {
    // Held by the server once connected (connect waits for that): until the opening has read the
    // session, frames wait in a queue of 64 and the 65th closes the socket (realtime/index.ts
    // EARLY_FRAMES_MAX), which is what a slow read on PostgreSQL once made of this flood.
    const me = await connectedUser(t);
    const before = t.ctx.hub.watchingSockets;
    // The budget's clock stands still during the flood, so the count does not depend on how fast
    // this machine answers: the burst of 40 passes, the other 160 are refused.
    const running = t.ctx.limits.socketEvents;
    const stopped = Date.now();
    t.ctx.limits.socketEvents = new TokenBuckets(20, 40, () => stopped);
    try {
      const ids = Array.from({ length: 200 }, (_, i) => 1_000_000 + i);
      for (let i = 0; i < 200; i++) me.s.send("presence_watch", { userIds: ids }, i + 1);
      let closed = "open";
      void me.s.closed.then(({ code, reason }) => (closed = `closed ${code} ${reason}`));
      const answers = () => me.s.frames.filter((f) => f.ack !== undefined);
      await until(() => answers().length === 200, "an answer to each of the 200 lists", 60_000).catch((error: Error) => {
        // What came back instead, and whether the socket still stood.
        const codes = new Map<string, number>();
        for (const f of answers()) codes.set(f.error?.code ?? "ok", (codes.get(f.error?.code ?? "ok") ?? 0) + 1);
        throw new Error(`${error.message}: answers ${JSON.stringify([...codes])}; socket ${closed}; other frames ${JSON.stringify(me.s.frames.filter((f) => f.ack === undefined).slice(0, 5))}`);
      });
    } finally {
      t.ctx.limits.socketEvents = running;
    }
    const refused = me.s.frames.filter((f) => f.error?.code === "rate_limited").length;
    expect(refused).toBe(160);
    expect(t.ctx.hub.watchingSockets).toBe(before + 1);
    me.s.close();
  }, 90_000);

  test("a watch list holds at most 200 ids, never the watcher, and goes with its socket", () => {
    const hub = new Hub(0, 60_000);
    hub.onPresence((userId, online) => hub.sendAbout(userId, new Set(), new Set(), online ? "user_online" : "user_offline", () => ({ userId, name: "" })));
    const heard: string[] = [];
    const watcher = fakeSocket(1, { heard: heard });
    hub.connect(watcher);
    hub.watch(watcher, [1, ...Array.from({ length: 300 }, (_, i) => i + 2)]);
    expect(hub.watchingSockets).toBe(1);
    hub.connect(fakeSocket(200, { heard: [] }));
    hub.connect(fakeSocket(202, { heard: [] }));
    expect(heard.map((f) => JSON.parse(f).data.userId)).toEqual([200]);
    hub.disconnect(watcher);
    expect(hub.watchingSockets).toBe(0);
    hub.watch(watcher, [5]);
    expect(hub.watchingSockets).toBe(0);
    hub.closeAll(1001, "bye");
  });
});


describe("the online count", () => {
  test("is coalesced: many arrivals make one online_count per socket after the interval, and none when nothing changed", async () => {
    const hub = new Hub(0, 60);
    const heard: string[] = [];
    hub.connect(fakeSocket(1, { heard: heard }));
    for (let id = 2; id <= 50; id++) hub.connect(fakeSocket(id, { heard: [] }));
    // Nobody watches and nobody has a conversation: the arrivals themselves are not heard.
    expect(heard).toEqual([]);
    await until(() => heard.length > 0, "the coalesced count");
    expect(heard).toEqual([JSON.stringify({ event: "online_count", data: { online: 50 } })]);
    const late = fakeSocket(51, { heard: [] });
    hub.connect(late);
    hub.disconnect(late);
    // A timer due no earlier than the hub's next count: once it fires, that count had its turn.
    await afterTimers(60);
    expect(heard).toHaveLength(1);
    hub.closeAll(1001, "bye");
  });
});
