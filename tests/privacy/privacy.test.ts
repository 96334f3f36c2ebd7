// "Who can message and call me" (API.md "Safety", Privacy) and the contact flags the client
// uses to blur pictures from people one has never written to.
import { describe, expect, test } from "bun:test";
import { PRIVACY_CHANGES_PER_HOUR } from "../../src/privacy/index.ts";
import { ContactRegistry } from "../../src/privacy/contacts.ts";
import { registerUser } from "../support/app.ts";
import { connectedUser, listeningApp } from "../support/listening.ts";
import { fileOf, uploadForm } from "../uploads/fixtures.ts";

const t = listeningApp({ SIGNUP_RATE_LIMIT: "1000" });

const person = () => connectedUser(t);

const setPrivacy = (token: string, allowFrom: unknown) => t.call("PUT", "/api/users/privacy", { token, json: { allowFrom } });

describe("PUT /api/users/privacy", () => {
  test("answers the caller's own user with the new allow_from, everyone by default", async () => {
    const me = await registerUser(t);
    expect((await t.call("GET", "/api/auth/me", { token: me.token })).body.user.allow_from).toBe("everyone");
    const r = await setPrivacy(me.token, "contacts");
    expect(r.status).toBe(200);
    expect(r.body.user).toMatchObject({ id: me.user.id, allow_from: "contacts" });
    expect(r.body.user.email).toBeString();
    expect((await t.call("GET", "/api/auth/me", { token: me.token })).body.user.allow_from).toBe("contacts");
    expect((await setPrivacy(me.token, "everyone")).body.user.allow_from).toBe("everyone");
  });

  test("refuses anything but everyone or contacts, and needs a signed-in caller", async () => {
    const me = await registerUser(t);
    for (const bad of ["nobody", "", null, 1]) {
      const r = await setPrivacy(me.token, bad);
      expect(r.status).toBe(400);
      expect(r.body.fields.allowFrom).toBe('allowFrom must be "everyone" or "contacts"');
    }
    expect((await t.call("PUT", "/api/users/privacy", { json: { allowFrom: "contacts" } })).status).toBe(401);
  });

  test(`allows ${PRIVACY_CHANGES_PER_HOUR} changes an hour per user, then answers 429`, async () => {
    const me = await registerUser(t);
    for (let i = 0; i < PRIVACY_CHANGES_PER_HOUR; i++) expect((await setPrivacy(me.token, i % 2 ? "everyone" : "contacts")).status).toBe(200);
    const refused = await setPrivacy(me.token, "everyone");
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe("rate_limited");
    expect(refused.headers.get("retry-after")).toBeString();
  });

  test("is kept across a restart: the registry loads it from the users table", async () => {
    const me = await registerUser(t);
    const stranger = await registerUser(t);
    await setPrivacy(me.token, "contacts");
    const restarted = new ContactRegistry(t.ctx.db);
    await restarted.load();
    expect(restarted.accepts(me.user.id, stranger.user.id)).toBe(false);
  });
});

describe("people I have written to", () => {
  test("a stranger's message and files answer 403 not_accepting, and nothing is stored or delivered", async () => {
    const picky = await person();
    const stranger = await person();
    await setPrivacy(picky.token, "contacts");
    const r = await stranger.s.ask("send_message", { receiverId: picky.user.id, content: "hello there" });
    expect(r.error).toEqual({ code: "not_accepting", message: "This person only accepts messages from people they have written to" });
    expect(await picky.s.silent("new_message", stranger.s)).toBe(true);
    const upload = await t.call("POST", "/api/messages/upload", { token: stranger.token, body: uploadForm(picky.user.id, "file", [fileOf("x", "a.txt")]) });
    expect(upload.status).toBe(403);
    expect(upload.body).toEqual({ error: "This person only accepts messages from people they have written to", code: "not_accepting" });
    const many = await t.call("POST", "/api/messages/upload-multiple", { token: stranger.token, body: uploadForm(picky.user.id, "files", [fileOf("y", "b.txt")]) });
    expect(many.body.code).toBe("not_accepting");
    expect(await picky.s.silent("new_message")).toBe(true);
    const stored = (await t.sql<{ n: number }>("SELECT CAST(count(*) AS INTEGER) AS n FROM messages WHERE receiver_id = ?", picky.user.id))[0]!;
    expect(stored.n).toBe(0);
    picky.s.close();
    stranger.s.close();
  });

  test("a stranger's call answers as if the person were offline, and their typing is dropped", async () => {
    const picky = await person();
    const stranger = await person();
    await setPrivacy(picky.token, "contacts");
    const ack = await stranger.s.ask("call_user", { receiverId: picky.user.id, callerPeerId: "p1" });
    expect(ack.data).toEqual({ status: "offline" });
    expect((await stranger.s.next("call_rejected")).data).toEqual({ reason: "offline" });
    expect(await picky.s.silent("incoming_call", stranger.s)).toBe(true);
    stranger.s.send("typing_start", { receiverId: picky.user.id });
    expect(await picky.s.silent("user_typing", stranger.s)).toBe(true);
    picky.s.close();
    stranger.s.close();
  });

  test("once the person writes to them, their messages and calls get through", async () => {
    const picky = await person();
    const friend = await person();
    await setPrivacy(picky.token, "contacts");
    await picky.s.ask("send_message", { receiverId: friend.user.id, content: "hi, it's me" });
    const reply = await friend.s.ask("send_message", { receiverId: picky.user.id, content: "hi back" });
    expect(reply.data.message.content).toBe("hi back");
    expect((await friend.s.ask("call_user", { receiverId: picky.user.id, callerPeerId: "p1" })).data).toEqual({ status: "ringing" });
    await picky.s.next("incoming_call");
    picky.s.close();
    friend.s.close();
  });

  test("a file counts as writing, and switching back to everyone lets strangers in again", async () => {
    const picky = await person();
    const friend = await person();
    const stranger = await person();
    await setPrivacy(picky.token, "contacts");
    const sent = await t.call("POST", "/api/messages/upload", { token: picky.token, body: uploadForm(friend.user.id, "file", [fileOf("z", "c.txt")]) });
    expect(sent.status).toBe(201);
    expect((await friend.s.ask("send_message", { receiverId: picky.user.id, content: "got it" })).data.message).toBeDefined();
    expect((await stranger.s.ask("send_message", { receiverId: picky.user.id, content: "me?" })).error?.code).toBe("not_accepting");
    await setPrivacy(picky.token, "everyone");
    expect((await stranger.s.ask("send_message", { receiverId: picky.user.id, content: "me now" })).data.message.content).toBe("me now");
    [picky, friend, stranger].forEach((p) => p.s.close());
  });
});

describe("contact flags for blurred pictures", () => {
  test("the conversation says whether the caller has written to that person", async () => {
    const a = await person();
    const b = await person();
    await b.s.ask("send_message", { receiverId: a.user.id, content: "picture coming" });
    expect((await t.call("GET", `/api/messages/${b.user.id}`, { token: a.token })).body.contact).toBe(false);
    expect((await t.call("GET", `/api/messages/${a.user.id}`, { token: b.token })).body.contact).toBe(true);
    await a.s.ask("send_message", { receiverId: b.user.id, content: "reply" });
    expect((await t.call("GET", `/api/messages/${b.user.id}`, { token: a.token })).body.contact).toBe(true);
    a.s.close();
    b.s.close();
  });

  test("each chat in chat-users-with-messages carries is_contact", async () => {
    const a = await person();
    const b = await person();
    const c = await person();
    await b.s.ask("send_message", { receiverId: a.user.id, content: "from b" });
    await a.s.ask("send_message", { receiverId: c.user.id, content: "to c" });
    const r = await t.call("GET", "/api/messages/chat-users-with-messages", { token: a.token });
    const flags = Object.fromEntries(r.body.users.map((u: { id: number; is_contact: boolean }) => [u.id, u.is_contact]));
    expect(flags).toEqual({ [b.user.id]: false, [c.user.id]: true });
    expect(r.body.users[0].latest_message).toBeDefined();
    expect(r.body.users[0].unread_count).toBeNumber();
    [a, b, c].forEach((p) => p.s.close());
  });
});
