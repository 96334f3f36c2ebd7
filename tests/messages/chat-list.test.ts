import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { makeTestApp, registerUser, type TestApp } from "../support/app.ts";
import { sendText, sendTexts } from "./seed.ts";

let t: TestApp;
let me: Awaited<ReturnType<typeof registerUser>>;
let bob: Awaited<ReturnType<typeof registerUser>>;
let carol: Awaited<ReturnType<typeof registerUser>>;
let dave: Awaited<ReturnType<typeof registerUser>>;

beforeAll(async () => {
  t = makeTestApp();
  [me, bob, carol, dave] = [await registerUser(t), await registerUser(t), await registerUser(t), await registerUser(t)];
  await sendTexts(t, bob.user.id, me.user.id, 3, "from bob");
  await sendText(t, me.user.id, carol.user.id, "to carol");
  await sendTexts(t, dave.user.id, me.user.id, 2, "from dave");
  await sendText(t, me.user.id, bob.user.id, "reply to bob");
});
afterAll(() => t.close());

const get = (path: string, token = me.token) => t.call("GET", path, { token });

describe("the chat list", () => {
  test("lists everyone I have a conversation with, newest conversation first", async () => {
    const res = await get("/api/messages/chat-users-with-messages");
    expect(res.status).toBe(200);
    expect(res.body.users.map((u: { id: number }) => u.id)).toEqual([bob.user.id, dave.user.id, carol.user.id]);
  });

  test("gives each person the latest message either way and the unread count from them", async () => {
    const { users } = (await get("/api/messages/chat-users-with-messages")).body;
    const byId = new Map(users.map((u: { id: number }) => [u.id, u]));
    expect(byId.get(bob.user.id)).toMatchObject({ name: bob.user.name, unread_count: 3, latest_message: { content: "reply to bob", sender_id: me.user.id } });
    expect(byId.get(dave.user.id)).toMatchObject({ unread_count: 2, latest_message: { content: "from dave 2", sender_name: dave.user.name } });
    expect(byId.get(carol.user.id)).toMatchObject({ unread_count: 0, latest_message: { content: "to carol" } });
    expect(users[0]).not.toHaveProperty("email");
  });

  test("answers the legacy chat-users call with the same people and no latest_message", async () => {
    const legacy = (await get("/api/messages/chat-users")).body.users;
    expect(legacy.map((u: { id: number }) => u.id)).toEqual([bob.user.id, dave.user.id, carol.user.id]);
    for (const user of legacy) expect(user).not.toHaveProperty("latest_message");
    expect(legacy[0].unread_count).toBe(3);
  });

  test("is empty for someone with no conversations", async () => {
    const loner = await registerUser(t);
    expect((await get("/api/messages/chat-users-with-messages", loner.token)).body).toEqual({ users: [] });
    expect((await get("/api/messages/chat-users", loner.token)).body).toEqual({ users: [] });
  });
});

describe("unread counters", () => {
  test("counts every unread message sent to me", async () => {
    expect((await get("/api/messages/unread/count")).body).toEqual({ unread_count: 5 });
    expect((await get("/api/messages/unread/count", carol.token)).body).toEqual({ unread_count: 1 });
  });

  test("splits the unread messages per sender with the sender's name", async () => {
    const { items } = (await get("/api/messages/unread/per-user")).body;
    expect(items).toHaveLength(2);
    expect(items).toContainEqual({ sender_id: bob.user.id, sender_name: bob.user.name, unread_count: 3 });
    expect(items).toContainEqual({ sender_id: dave.user.id, sender_name: dave.user.name, unread_count: 2 });
  });

  test("needs a bearer token", async () => {
    for (const path of ["/api/messages/unread/count", "/api/messages/unread/per-user", "/api/messages/chat-users", "/api/messages/chat-users-with-messages"]) {
      expect((await t.call("GET", path)).status).toBe(401);
    }
  });
});

describe("route order", () => {
  test("never reads chat-users, chat-users-with-messages or unread as a contact id", async () => {
    for (const path of ["/api/messages/chat-users", "/api/messages/chat-users-with-messages"]) {
      const res = await get(path);
      expect(res.status).toBe(200);
      expect(res.body).toHaveProperty("users");
      expect(res.body).not.toHaveProperty("messages");
    }
    expect((await get("/api/messages/unread/count")).body).toHaveProperty("unread_count");
    expect((await get("/api/messages/unread")).status).toBe(400);
  });
});
