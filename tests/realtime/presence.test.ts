import { describe, expect, test } from "bun:test";
import { registerUser } from "../support/app.ts";
import { listeningApp } from "../support/listening.ts";
import { connect } from "../support/ws.ts";
import { until } from "../support/until.ts";

// Going offline is announced after a grace (5 s by default; abuse-presence.test.ts covers the
// flapping it absorbs); 1 s keeps these tests quick. Who hears a change at all (conversations and
// watches, not everyone) is presence-watch.test.ts; here the watcher watches.
const t = listeningApp({ PRESENCE_GRACE_SECONDS: "1" });

// Without a grace, for the test that a tab closing while another stays open announces nothing:
// a wrong "offline" would be sent at once, before the watcher's pong, not a grace later.
const now = listeningApp({ PRESENCE_GRACE_SECONDS: "0" });

// 0/1 on SQLite, a boolean on PostgreSQL.
const isOnlineIn = async (app: typeof t, id: number) => Number((await app.sql<{ is_online: number | boolean }>("SELECT is_online FROM users WHERE id = ?", id))[0]!.is_online) === 1;
const isOnline = (id: number) => isOnlineIn(t, id);

describe("presence", () => {
  test("several tabs are one presence: online with the first, offline after the last", async () => {
    const watcher = await registerUser(now);
    const ann = await registerUser(now, { name: "Ann Presence" });
    const w = await connect(now.wsUrl, watcher.token);
    await w.ask("presence_watch", { userIds: [ann.user.id] });
    const tab1 = await connect(now.wsUrl, ann.token);
    const online = await w.next("user_online", undefined, (f) => f.data.userId === ann.user.id);
    expect(online.data).toEqual({ userId: ann.user.id, name: "Ann Presence" });
    expect(await isOnlineIn(now, ann.user.id)).toBe(true);
    const tab2 = await connect(now.wsUrl, ann.token);
    expect(await w.silent("user_online", tab2)).toBe(true);
    tab1.close();
    // Without a grace, a wrong offline would be sent as the server handles the close.
    await until(() => now.ctx.hub.socketsOf(ann.user.id).length === 1, "the server handling the first tab's close");
    expect(await w.silent("user_offline", tab2)).toBe(true);
    tab2.close();
    const offline = await w.next("user_offline", undefined, (f) => f.data.userId === ann.user.id);
    expect(offline.data.name).toBe("Ann Presence");
    expect(await isOnlineIn(now, ann.user.id)).toBe(false);
    w.close();
  });

  test("user_logout takes a user offline with the socket still open; user_back_online returns them", async () => {
    const watcher = await registerUser(t);
    const bob = await registerUser(t);
    const w = await connect(t.wsUrl, watcher.token);
    await w.ask("presence_watch", { userIds: [bob.user.id] });
    const b = await connect(t.wsUrl, bob.token);
    await w.next("user_online", undefined, (f) => f.data.userId === bob.user.id);
    b.send("user_logout");
    await w.next("user_offline", undefined, (f) => f.data.userId === bob.user.id);
    expect(await isOnline(bob.user.id)).toBe(false);
    b.send("user_back_online");
    await w.next("user_online", undefined, (f) => f.data.userId === bob.user.id);
    expect(await isOnline(bob.user.id)).toBe(true);
    b.close();
    w.close();
  });

  test("the people list shows who is online", async () => {
    const viewer = await registerUser(t);
    const cat = await registerUser(t);
    // The list reads the users row, written by the presence batch before its frames leave: the
    // viewer lists once it has heard the batch (on PostgreSQL it commits after the socket opened).
    const v = await connect(t.wsUrl, viewer.token);
    await v.ask("presence_watch", { userIds: [cat.user.id] });
    const c = await connect(t.wsUrl, cat.token);
    await v.next("user_online", undefined, (f) => f.data.userId === cat.user.id);
    const list = await t.call("GET", "/api/users", { token: viewer.token });
    expect(list.body.users[0].id).toBe(cat.user.id);
    expect(list.body.users[0].is_online).toBe(true);
    c.close();
    v.close();
  });

  test("a user never hears their own presence", async () => {
    const dan = await registerUser(t);
    const d1 = await connect(t.wsUrl, dan.token);
    const d2 = await connect(t.wsUrl, dan.token);
    d2.close();
    await until(() => t.ctx.hub.socketsOf(dan.user.id).length === 1, "the server handling the second tab's close");
    expect(await d1.silent("user_online")).toBe(true);
    d1.close();
  });

  test("new_user_registered reaches signed-in users", async () => {
    const viewer = await registerUser(t);
    const v = await connect(t.wsUrl, viewer.token);
    await registerUser(t, { name: "Fresh Face" });
    const event = await v.next("new_user_registered", undefined, (f) => f.data.name === "Fresh Face");
    expect(event.data).toEqual({ name: "Fresh Face" });
    v.close();
  });
});
