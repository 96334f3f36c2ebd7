// What a block does, in either direction, on open sockets of both people in every tab
// (API.md "Safety", Blocks): refusals, dropped events, hidden lists and presence, ended calls
// and roulette pairs, and everything back on unblock.
import { describe, expect, test } from "bun:test";
import { idsOf, registerUser } from "../support/app.ts";
import { closeSockets, type ConnectedUser, connectedUser, listeningApp } from "../support/listening.ts";
import { connect, heardAbout } from "../support/ws.ts";
import { until } from "../support/until.ts";
import { fileOf, storedFiles, uploadForm } from "../uploads/fixtures.ts";

// Presence at once (no grace), so the block's effect on presence is seen without waiting.
const t = listeningApp({ SIGNUP_RATE_LIMIT: "1000", PRESENCE_GRACE_SECONDS: "0" });

type Person = ConnectedUser;

const person = (name: string) => connectedUser(t, { name });

/** Two connected people who have written to each other; `blocker` then blocks `blocked`. */
async function blockedPair() {
  const blocker = await person("Blocker Bea");
  const blocked = await person("Blocked Bob");
  // An answered ping: the server holds Bob's socket (strangers hear no presence to wait for).
  await blocked.s.ask("ping", {});
  await blocker.s.ask("send_message", { receiverId: blocked.user.id, content: "hi before" });
  await blocked.s.next("new_message");
  await blocked.s.ask("send_message", { receiverId: blocker.user.id, content: "hello before" });
  await blocker.s.next("new_message");
  const r = await t.call("POST", "/api/blocks", { token: blocker.token, json: { userId: blocked.user.id } });
  expect(r.status).toBe(201);
  await blocker.s.next("block_changed");
  // What came before the block is not under test: only what follows it.
  for (const p of [blocker, blocked]) p.s.frames.length = 0;
  return { blocker, blocked };
}


/** The messages stored between two users. */
const messagesBetween = async (a: number, b: number) =>
  Number((await t.sql<{ n: number }>("SELECT count(*) AS n FROM messages WHERE (sender_id = ? AND receiver_id = ?) OR (sender_id = ? AND receiver_id = ?)", a, b, b, a))[0]!.n);


describe("a block refuses messages and files both ways", () => {
  test("send_message answers 403 blocked in both directions and nothing reaches the other side", async () => {
    const { blocker, blocked } = await blockedPair();
    for (const [from, to] of [[blocked, blocker], [blocker, blocked]] as const) {
      const r = await from.s.ask("send_message", { receiverId: to.user.id, content: "can you read this?" });
      expect(r.error).toEqual({ code: "blocked", message: "You can't message this person" });
      expect(await to.s.silent("new_message", from.s)).toBe(true);
    }
    const [stored] = await t.sql<{ n: number }>("SELECT count(*) AS n FROM messages WHERE content = 'can you read this?'");
    expect(Number(stored!.n)).toBe(0);
    closeSockets(blocker, blocked);
  });

  test("uploads answer 403 blocked in both directions and store no file", async () => {
    const { blocker, blocked } = await blockedPair();
    const filesBefore = storedFiles(t.dataDir).length;
    const messagesBefore = await messagesBetween(blocker.user.id, blocked.user.id);
    for (const [from, to] of [[blocked, blocker], [blocker, blocked]] as const) {
      const one = await t.call("POST", "/api/messages/upload", { token: from.token, body: uploadForm(to.user.id, "file", [fileOf("x", "a.txt")]) });
      expect(one.status).toBe(403);
      expect(one.body).toEqual({ error: "You can't message this person", code: "blocked" });
      const many = await t.call("POST", "/api/messages/upload-multiple", { token: from.token, body: uploadForm(to.user.id, "files", [fileOf("y", "b.txt")]) });
      expect(many.status).toBe(403);
      expect(many.body.code).toBe("blocked");
      expect(await to.s.silent("new_message")).toBe(true);
    }
    expect(storedFiles(t.dataDir).length).toBe(filesBefore);
    expect(await messagesBetween(blocker.user.id, blocked.user.id)).toBe(messagesBefore);
    closeSockets(blocker, blocked);
  });
});

describe("a block drops typing and read events", () => {
  test("typing reaches neither side", async () => {
    const { blocker, blocked } = await blockedPair();
    blocked.s.send("typing_start", { receiverId: blocker.user.id });
    blocker.s.send("typing_start", { receiverId: blocked.user.id });
    expect(await blocker.s.silent("user_typing", blocked.s)).toBe(true);
    expect(await blocked.s.silent("user_typing", blocker.s)).toBe(true);
    closeSockets(blocker, blocked);
  });

  test("a read still marks the messages read, but the sender hears nothing, over the socket and over HTTP", async () => {
    const { blocker, blocked } = await blockedPair();
    const unread = await t.sql<{ id: number }>("SELECT id FROM messages WHERE sender_id = ? AND receiver_id = ? AND read_at IS NULL", blocked.user.id, blocker.user.id);
    expect(unread.length).toBe(1);
    const r = await blocker.s.ask("messages_read", { senderId: blocked.user.id, receiverId: blocker.user.id, readAt: new Date().toISOString(), messageIds: unread.map((m) => m.id) });
    expect(r.data).toEqual({ updatedCount: 1 });
    expect(await blocked.s.silent("messages_read_batch")).toBe(true);
    const http = await t.call("PUT", `/api/messages/mark-read/${blocker.user.id}`, { token: blocked.token });
    expect(http.body.updatedCount).toBe(1);
    expect(await blocker.s.silent("messages_read_batch")).toBe(true);
    closeSockets(blocker, blocked);
  });
});

describe("a block hides delivery", () => {
  test("messages that waited for the blocker are delivered on connect without telling the blocked sender", async () => {
    const sender = await person("Early Eve");
    const away = await registerUser(t, { name: "Away Ari" });
    const sent = await sender.s.ask("send_message", { receiverId: away.user.id, content: "while you were out" });
    await t.call("POST", "/api/blocks", { token: away.token, json: { userId: sender.user.id } });
    const back = await connect(t.wsUrl, away.token);
    // The delivery on connect commits on its own turn (on PostgreSQL after the socket's opening):
    // waited for first, so the silence checked next comes after it.
    const delivered = async () => {
      const [row] = await t.sql<{ delivered_at: number | null }>("SELECT delivered_at FROM messages WHERE id = ?", sent.data.message.id);
      return row!.delivered_at !== null;
    };
    await until(delivered, "the waiting message marked delivered");
    expect(await heardAbout(sender.s, "user_online", away.user.id, back)).toBe(false);
    expect(sender.s.frames.some((f) => f.event === "message_delivered")).toBe(false);
    back.close();
    sender.s.close();
  });
});

describe("a block makes calls look offline", () => {
  test("call_user answers exactly as for an offline person, in both directions", async () => {
    const { blocker, blocked } = await blockedPair();
    const away = await registerUser(t);
    const offline = await blocked.s.ask("call_user", { receiverId: away.user.id, callerPeerId: "p0" });
    await blocked.s.next("call_rejected");
    for (const [from, to] of [[blocked, blocker], [blocker, blocked]] as const) {
      const ack = await from.s.ask("call_user", { receiverId: to.user.id, callerPeerId: "p1" });
      expect(ack).toEqual({ ...offline, ack: ack.ack });
      expect((await from.s.next("call_rejected")).data).toEqual({ reason: "offline" });
      expect(await to.s.silent("incoming_call", from.s)).toBe(true);
    }
    closeSockets(blocker, blocked);
  });

  test("blocking ends a live call between the two: both get call_ended", async () => {
    const caller = await person("Caller Cleo");
    const callee = await person("Callee Cruz");
    caller.s.send("call_user", { receiverId: callee.user.id, callerPeerId: "pc" });
    await callee.s.next("incoming_call");
    callee.s.send("answer_call", { callerId: caller.user.id, answererPeerId: "pr" });
    await caller.s.next("call_answered");
    await t.call("POST", "/api/blocks", { token: callee.token, json: { userId: caller.user.id } });
    await caller.s.next("call_ended");
    await callee.s.next("call_ended");
    expect(t.ctx.calls.isBusy(caller.user.id)).toBe(false);
    expect(t.ctx.calls.isBusy(callee.user.id)).toBe(false);
    closeSockets(caller, callee);
  });

  test("blocking someone else leaves a call with a third person alone", async () => {
    const caller = await person("Caller Kai");
    const callee = await person("Callee Lin");
    const bystander = await registerUser(t);
    caller.s.send("call_user", { receiverId: callee.user.id, callerPeerId: "pc" });
    await callee.s.next("incoming_call");
    await t.call("POST", "/api/blocks", { token: caller.token, json: { userId: bystander.user.id } });
    expect(await callee.s.silent("call_ended")).toBe(true);
    expect(t.ctx.calls.isBusy(caller.user.id)).toBe(true);
    closeSockets(caller, callee);
  });
});

describe("a block hides each from the other's lists", () => {
  test("neither appears in the other's people list, chat lists or unread counts; the blocker is 404 to the blocked", async () => {
    const { blocker, blocked } = await blockedPair();
    for (const [viewer, hidden] of [[blocker, blocked], [blocked, blocker]] as const) {
      const people = await t.call("GET", "/api/users?limit=500", { token: viewer.token });
      expect(idsOf(people.body.users)).not.toContain(hidden.user.id);
      const chats = await t.call("GET", "/api/messages/chat-users-with-messages", { token: viewer.token });
      expect(idsOf(chats.body.users)).not.toContain(hidden.user.id);
      const legacy = await t.call("GET", "/api/messages/chat-users", { token: viewer.token });
      expect(idsOf(legacy.body.users)).not.toContain(hidden.user.id);
      const perUser = await t.call("GET", "/api/messages/unread/per-user", { token: viewer.token });
      expect(perUser.body.items.map((i: { sender_id: number }) => i.sender_id)).not.toContain(hidden.user.id);
      expect((await t.call("GET", "/api/messages/unread/count", { token: viewer.token })).body.unread_count).toBe(0);
      // Both can still read what was said before.
      const history = await t.call("GET", `/api/messages/${hidden.user.id}`, { token: viewer.token });
      expect(history.body.messages.map((m: { content: string }) => m.content)).toEqual(["hi before", "hello before"]);
    }
    const profile = await t.call("GET", `/api/users/${blocker.user.id}`, { token: blocked.token });
    expect(profile.status).toBe(404);
    expect(profile.body.code).toBe("not_found");
    const theirs = await t.call("GET", `/api/users/${blocked.user.id}`, { token: blocker.token });
    expect(theirs.status).toBe(200);
    closeSockets(blocker, blocked);
  });
});

describe("a block reaches open sockets at once", () => {
  test("every tab of the blocker hears block_changed, and the blocked person sees the blocker go offline", async () => {
    const blocker = await person("Tabs Tess");
    const tab2 = await connect(t.wsUrl, blocker.token);
    const blocked = await person("Watcher Wes");
    await t.call("POST", "/api/blocks", { token: blocker.token, json: { userId: blocked.user.id } });
    expect((await blocker.s.next("block_changed")).data).toEqual({ userId: blocked.user.id, blocked: true });
    expect((await tab2.next("block_changed")).data).toEqual({ userId: blocked.user.id, blocked: true });
    expect((await blocked.s.next("user_offline", undefined, (f) => f.data.userId === blocker.user.id)).data).toEqual({ userId: blocker.user.id, name: "Tabs Tess" });
    expect(await blocked.s.silent("block_changed")).toBe(true);
    tab2.close();
    closeSockets(blocker, blocked);
  });

  test("presence events stop in both directions while the block holds", async () => {
    const { blocker, blocked } = await blockedPair();
    const witness = await person("Witness Wu");
    await witness.s.ask("presence_watch", { userIds: [blocked.user.id, blocker.user.id] });
    blocked.s.close();
    await witness.s.next("user_offline", undefined, (f) => f.data.userId === blocked.user.id);
    expect(await heardAbout(blocker.s, "user_offline", blocked.user.id, witness.s)).toBe(false);
    const again = await connect(t.wsUrl, blocked.token);
    await witness.s.next("user_online", undefined, (f) => f.data.userId === blocked.user.id);
    expect(await heardAbout(blocker.s, "user_online", blocked.user.id, again, witness.s)).toBe(false);
    blocker.s.close();
    await witness.s.next("user_offline", undefined, (f) => f.data.userId === blocker.user.id);
    expect(await heardAbout(again, "user_offline", blocker.user.id, witness.s)).toBe(false);
    again.close();
    witness.s.close();
  });
});

describe("unblocking", () => {
  test("restores messages, lists and presence at once", async () => {
    const { blocker, blocked } = await blockedPair();
    expect((await t.call("DELETE", `/api/blocks/${blocked.user.id}`, { token: blocker.token })).status).toBe(204);
    expect((await blocker.s.next("block_changed", undefined, (f) => f.data.blocked === false)).data).toEqual({ userId: blocked.user.id, blocked: false });
    expect((await blocked.s.next("user_online", undefined, (f) => f.data.userId === blocker.user.id)).data.name).toBe("Blocker Bea");
    expect((await blocker.s.next("user_online", undefined, (f) => f.data.userId === blocked.user.id)).data.name).toBe("Blocked Bob");
    const sent = await blocked.s.ask("send_message", { receiverId: blocker.user.id, content: "friends again" });
    expect(sent.data.message.content).toBe("friends again");
    await blocker.s.next("new_message");
    const chats = await t.call("GET", "/api/messages/chat-users-with-messages", { token: blocker.token });
    expect(idsOf(chats.body.users)).toContain(blocked.user.id);
    expect((await t.call("GET", `/api/users/${blocker.user.id}`, { token: blocked.token })).status).toBe(200);
    closeSockets(blocker, blocked);
  });

  test("keeps the two apart while a block the other way still holds", async () => {
    const { blocker, blocked } = await blockedPair();
    await t.call("POST", "/api/blocks", { token: blocked.token, json: { userId: blocker.user.id } });
    await t.call("DELETE", `/api/blocks/${blocked.user.id}`, { token: blocker.token });
    expect(await heardAbout(blocked.s, "user_online", blocker.user.id, blocker.s)).toBe(false);
    expect((await blocker.s.ask("send_message", { receiverId: blocked.user.id, content: "still?" })).error?.code).toBe("blocked");
    closeSockets(blocker, blocked);
  });
});

// Blocking a roulette stranger: stranger-blocks.test.ts.

describe("the block check", () => {
  test("is answered from memory: loaded at start-up from the table", async () => {
    const a = await registerUser(t);
    const b = await registerUser(t);
    await t.call("POST", "/api/blocks", { token: a.token, json: { userId: b.user.id } });
    const { BlockRegistry } = await import("../../src/blocks/registry.ts");
    const reloaded = new BlockRegistry(t.ctx.db);
    await reloaded.load();
    expect(reloaded.between(b.user.id, a.user.id)).toBe(true);
    expect(reloaded.hasBlocked(b.user.id, a.user.id)).toBe(false);
  });
});
