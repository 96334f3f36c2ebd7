// Message actions across instances (issue 25: "every new action works ... across instances"; API.md
// "Messages: replies, edits, deletions, reactions, voice" and "Several instances"). Two whole apps
// over one Redis (a fresh key prefix) and one database (one SQLite file, or one PostgreSQL
// database on the PostgreSQL pass), with one UPLOADS_DIR both store in and serve from. In every
// exchange the two people are on different instances: a reply, an edit, a deletion for everyone
// (its file leaves the shared folder and neither instance serves it; the chat list and unread
// counts read through the other instance are right), a reaction added and removed, a voice message
// uploaded through one and served by the other; a block or privacy setting made on one instance
// refuses the actions on the other; and voice uploads spend one upload budget and one storage
// quota over both (a deletion through one instance frees room on the other).
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { registerUser, type TestApp } from "../support/app.ts";
import { twoInstancesForFile } from "../support/two-instances.ts";
import type { TestSocket } from "../support/ws.ts";
import { fileOf, pngBytes, uploadForm } from "../uploads/fixtures.ts";
import type { Message } from "../../src/realtime/protocol.ts";
import type { ChatUser } from "../../src/messages/service.ts";

/** Voice uploads per user a minute, over both instances (the limit test spends it; the others upload at most two each). */
const UPLOADS_PER_MINUTE = 4;
const sharedUploads = mkdtempSync(join(tmpdir(), "webchat-actions-across-"));
const ENV = {
  PRESENCE_GRACE_SECONDS: "0",
  SIGNUP_RATE_LIMIT: "1000",
  UPLOADS_DIR: sharedUploads,
  UPLOAD_RATE_LIMIT: String(UPLOADS_PER_MINUTE),
  STORAGE_QUOTA_MB: "1",
};
const QUOTA_BYTES = 1024 * 1024;

const { a, b, tabKnownToBoth: on } = twoInstancesForFile(ENV);
afterAll(() => rmSync(sharedUploads, { recursive: true, force: true }));

type Person = Awaited<ReturnType<typeof registerUser>>;

/** Ann writes through instance A, Ben through instance B; both have a tab open. */
async function across(): Promise<{ ann: Person; ben: Person; annA: TestSocket; benB: TestSocket }> {
  const ann = await registerUser(a, { name: "Ann on A" });
  const ben = await registerUser(b, { name: "Ben on B" });
  return { ann, ben, annA: await on(a, ann), benB: await on(b, ben) };
}

async function send(from: TestSocket, to: Person, content: string, extra: Record<string, unknown> = {}) {
  const ack = await from.ask("send_message", { receiverId: to.user.id, content, messageType: "text", ...extra });
  if (ack.error) throw new Error(`send refused: ${ack.error.code}`);
  return ack.data.message;
}

const history = async (app: TestApp, viewer: Person, other: Person) =>
  (await app.call("GET", `/api/messages/${other.user.id}`, { token: viewer.token })).body.messages as Message[];

const chatList = async (app: TestApp, viewer: Person) =>
  (await app.call("GET", "/api/messages/chat-users-with-messages", { token: viewer.token })).body.users as ChatUser[];

const recording = (name: string) => new Uint8Array(readFileSync(join(import.meta.dir, "..", "uploads", "voice", name)));

function voiceForm(receiverId: number, name = "two-seconds.ogg", durationMs = "2000"): FormData {
  const form = uploadForm(receiverId, "file", [fileOf(recording(name), "voice.ogg", "audio/ogg")]);
  form.append("kind", "voice");
  form.append("duration_ms", durationMs);
  return form;
}

describe("replies across instances", () => {
  test("a reply sent through A reaches the receiver's socket on B with its quote, and B's history shows it", async () => {
    const { ann, ben, annA, benB } = await across();
    const original = await send(benB, ann, "what time tomorrow? ".repeat(10));
    await annA.next("new_message", undefined, (f) => f.data.message.id === original.id);
    const reply = await send(annA, ben, "nine", { replyToId: original.id });
    expect(reply.reply_to).toEqual({ id: original.id, sender_name: "Ben on B", message_type: "text", content: original.content.slice(0, 100) });
    const heard = await benB.next("new_message", undefined, (f) => f.data.message.id === reply.id);
    expect(heard.data.message.reply_to).toEqual(reply.reply_to);
    expect((await history(b, ben, ann)).at(-1)).toMatchObject({ id: reply.id, reply_to: reply.reply_to });
  });
});

describe("edits across instances", () => {
  test("an edit through A reaches the receiver's socket and the sender's other tab on B; history and the chat list through B show it edited", async () => {
    const { ann, ben, annA, benB } = await across();
    const annB = await on(b, ann);
    const message = await send(annA, ben, "helo");
    await benB.next("new_message", undefined, (f) => f.data.message.id === message.id);
    const ack = await annA.ask("edit_message", { messageId: message.id, content: "hello" });
    expect(ack.error).toBeUndefined();
    expect((await benB.next("message_edited")).data).toEqual(ack.data);
    expect((await annB.next("message_edited")).data).toEqual(ack.data);
    expect((await history(b, ben, ann)).at(-1)).toMatchObject({ id: message.id, content: "hello", edited_at: ack.data.edited_at });
    expect((await chatList(b, ben))[0]!.latest_message).toMatchObject({ id: message.id, content: "hello", edited_at: ack.data.edited_at });
  });
});

describe("deletion for everyone across instances", () => {
  test("a photo and a voice message deleted through A: message_deleted on B, the files leave UPLOADS_DIR and neither instance serves them, B's chat list and unread counts follow", async () => {
    const { ann, ben, annA, benB } = await across();
    const kept = await send(annA, ben, "this one stays");
    const photo = await a.call("POST", "/api/messages/upload", { token: ann.token, body: uploadForm(ben.user.id, "file", [fileOf(await pngBytes(), "me.png", "image/png")]) });
    expect(photo.status).toBe(201);
    const voice = await a.call("POST", "/api/messages/upload", { token: ann.token, body: voiceForm(ben.user.id) });
    expect(voice.status).toBe(201);
    await benB.next("new_message", undefined, (f) => f.data.message.id === voice.body.message.id);
    const files = [photo.body.message.file_path as string, voice.body.message.file_path as string];
    for (const path of files) {
      expect(existsSync(join(sharedUploads, path))).toBe(true);
      expect((await b.call("GET", `/uploads/${path}`, { token: ben.token })).status).toBe(200);
    }
    const unread = async () => (await b.call("GET", "/api/messages/unread/count", { token: ben.token })).body.unread_count;
    expect(await unread()).toBe(3);

    for (const message of [photo.body.message, voice.body.message]) {
      const ack = await annA.ask("delete_message", { messageId: message.id });
      expect(ack.error).toBeUndefined();
      expect((await benB.next("message_deleted", undefined, (f) => f.data.messageId === message.id)).data).toEqual(ack.data);
    }
    for (const path of files) {
      expect(existsSync(join(sharedUploads, path))).toBe(false);
      expect((await b.call("GET", `/uploads/${path}`, { token: ben.token })).status).toBe(404);
      expect((await a.call("GET", `/uploads/${path}`, { token: ann.token })).status).toBe(404);
    }
    // Read through B: the deleted voice message is still the conversation's last, shown deleted;
    // only the message that stayed is unread.
    expect(await unread()).toBe(1);
    const row = (await chatList(b, ben))[0]!;
    expect(row.id).toBe(ann.user.id);
    expect(row.unread_count).toBe(1);
    expect(row.latest_message).toMatchObject({ id: voice.body.message.id, content: "", file_path: null, deleted_at: expect.stringMatching(/Z$/) });
    const perUser = (await b.call("GET", "/api/messages/unread/per-user", { token: ben.token })).body.items;
    expect(perUser).toEqual([expect.objectContaining({ sender_id: ann.user.id, unread_count: 1 })]);
    const read = await b.call("PUT", `/api/messages/mark-read/${ann.user.id}`, { token: ben.token });
    expect(read.body.readMessages.map((m: { id: number }) => m.id)).toEqual([kept.id]);
  });
});

describe("reactions across instances", () => {
  test("a reaction added and removed through B is heard on A, and history through A counts it", async () => {
    const { ann, ben, annA, benB } = await across();
    const message = await send(annA, ben, "react to me");
    await benB.next("new_message", undefined, (f) => f.data.message.id === message.id);
    const added = await benB.ask("react", { messageId: message.id, emoji: "👍" });
    expect(added.data).toEqual({ messageId: message.id, userId: ben.user.id, emoji: "👍" });
    expect((await annA.next("message_reaction")).data).toEqual(added.data);
    await annA.ask("react", { messageId: message.id, emoji: "👍" });
    expect((await benB.next("message_reaction", undefined, (f) => f.data.userId === ann.user.id)).data.emoji).toBe("👍");
    const counted = (await history(a, ann, ben)).at(-1)!.reactions;
    expect(counted).toHaveLength(1);
    expect(counted[0]!.emoji).toBe("👍");
    expect(counted[0]!.user_ids.toSorted()).toEqual([ann.user.id, ben.user.id].toSorted());

    const removed = await benB.ask("react", { messageId: message.id, emoji: "👍" });
    expect(removed.data.emoji).toBeNull();
    expect((await annA.next("message_reaction", undefined, (f) => f.data.userId === ben.user.id)).data).toEqual(removed.data);
    expect((await history(a, ann, ben)).at(-1)!.reactions).toEqual([{ emoji: "👍", user_ids: [ann.user.id] }]);
  });
});

describe("voice messages across instances", () => {
  test("a voice message uploaded through A reaches the receiver on B, and B serves the recording inline to the two people only", async () => {
    const { ann, ben, benB } = await across();
    const r = await a.call("POST", "/api/messages/upload", { token: ann.token, body: voiceForm(ben.user.id, "three-seconds-live.webm", "3000") });
    expect(r.status).toBe(201);
    const message = r.body.message;
    expect(message).toMatchObject({ message_type: "voice", sender_id: ann.user.id });
    expect(existsSync(join(sharedUploads, message.file_path))).toBe(true);
    expect((await benB.next("new_message", undefined, (f) => f.data.message.id === message.id)).data.message).toMatchObject({ message_type: "voice", duration_ms: message.duration_ms });
    const served = await b.call("GET", `/uploads/${message.file_path}`, { token: ben.token });
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("audio/webm");
    expect(served.headers.get("content-disposition")).toStartWith("inline");
    expect((await b.call("GET", `/uploads/${message.file_path}`, { token: (await registerUser(b)).token })).status).toBe(404);
    expect((await history(b, ben, ann)).at(-1)).toMatchObject({ id: message.id, message_type: "voice", duration_ms: message.duration_ms });
  });
});

describe("blocks and privacy made on one instance hold on the other", () => {
  test("after Ben blocks Ann through B, Ann's edit, deletion, reaction, reply and voice message through A are refused, and Ben hears none of them", async () => {
    const { ann, ben, annA, benB } = await across();
    const mine = await send(annA, ben, "before the block");
    const theirs = await send(benB, ann, "theirs");
    await annA.next("new_message", undefined, (f) => f.data.message.id === theirs.id);
    expect((await b.call("POST", "/api/blocks", { token: ben.token, json: { userId: ann.user.id } })).status).toBe(201);
    expect((await annA.ask("edit_message", { messageId: mine.id, content: "changed" })).error?.code).toBe("blocked");
    expect((await annA.ask("delete_message", { messageId: mine.id })).error?.code).toBe("blocked");
    expect((await annA.ask("react", { messageId: theirs.id, emoji: "👍" })).error?.code).toBe("blocked");
    expect((await annA.ask("send_message", { receiverId: ben.user.id, content: "re", messageType: "text", replyToId: theirs.id })).error?.code).toBe("blocked");
    const voice = await a.call("POST", "/api/messages/upload", { token: ann.token, body: voiceForm(ben.user.id) });
    expect(voice.status).toBe(403);
    expect(voice.body.code).toBe("blocked");
    // And the blocker's own actions toward Ann through B are refused too.
    expect((await benB.ask("react", { messageId: mine.id, emoji: "👍" })).error?.code).toBe("blocked");
    // Nothing changed: history through A shows both messages as they were.
    const stored = await history(a, ann, ben);
    expect(stored.find((m) => m.id === mine.id)).toMatchObject({ content: "before the block", edited_at: null, deleted_at: null, reactions: [] });
    expect(stored.find((m) => m.id === theirs.id)).toMatchObject({ reactions: [] });
    expect(stored.some((m) => m.message_type === "voice" || m.content === "re")).toBe(false);
    // A positive marker behind anything A could have sent Ben: Ann's tab on B hears her own
    // message from A (frames from one instance reach another in the order sent).
    const annB = await on(b, ann);
    const carol = await registerUser(a, { name: "Carol" });
    const marker = await send(annA, carol, "marker");
    await annB.next("message_sent", undefined, (f) => f.data.message.id === marker.id);
    await benB.settle();
    expect(benB.frames.some((f) => ["message_edited", "message_deleted", "message_reaction"].includes(f.event ?? "") || (f.event === "new_message" && f.data.message.content === "re"))).toBe(false);
  });

  test("after Ben accepts only contacts through B, a stranger's reaction and edit through A are refused", async () => {
    const { ann, ben, annA, benB } = await across();
    const message = await send(annA, ben, "hello stranger");
    await benB.next("new_message", undefined, (f) => f.data.message.id === message.id);
    expect((await b.call("PUT", "/api/users/privacy", { token: ben.token, json: { allowFrom: "contacts" } })).status).toBe(200);
    // The setting is answered once every instance applied it (as a block is).
    expect((await annA.ask("react", { messageId: message.id, emoji: "👍" })).error?.code).toBe("not_accepting");
    expect((await annA.ask("edit_message", { messageId: message.id, content: "changed" })).error?.code).toBe("not_accepting");
    // Ben wrote nothing to Ann, but Ann wrote to Ben: Ben's reaction through B is accepted and heard on A.
    expect((await benB.ask("react", { messageId: message.id, emoji: "👍" })).error).toBeUndefined();
    expect((await annA.next("message_reaction")).data).toMatchObject({ userId: ben.user.id, emoji: "👍" });
  });
});

describe("limits count across instances", () => {
  test("voice uploads spend one budget over both instances: past it, either instance answers 429", async () => {
    const ann = await registerUser(a, { name: "Ann Limits" });
    const ben = await registerUser(b, { name: "Ben Limits" });
    for (let i = 0; i < UPLOADS_PER_MINUTE; i++) {
      const through = i % 2 === 0 ? a : b;
      expect((await through.call("POST", "/api/messages/upload", { token: ann.token, body: voiceForm(ben.user.id) })).status).toBe(201);
    }
    for (const through of [a, b]) {
      const refused = await through.call("POST", "/api/messages/upload", { token: ann.token, body: voiceForm(ben.user.id) });
      expect(refused.status).toBe(429);
      expect(refused.body.code).toBe("rate_limited");
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    }
    expect((await history(b, ben, ann)).filter((m) => m.message_type === "voice")).toHaveLength(UPLOADS_PER_MINUTE);
  });

  test("the storage quota is one over both instances: a file stored through A leaves no room for a voice message through B, until its deletion through A frees it", async () => {
    const ann = await registerUser(a, { name: "Ann Quota" });
    const ben = await registerUser(b, { name: "Ben Quota" });
    const annA = await on(a, ann);
    const big = await a.call("POST", "/api/messages/upload", { token: ann.token, body: uploadForm(ben.user.id, "file", [fileOf("x".repeat(QUOTA_BYTES - 1000), "big.txt")]) });
    expect(big.status).toBe(201);
    const full = await b.call("POST", "/api/messages/upload", { token: ann.token, body: voiceForm(ben.user.id) });
    expect(full.status).toBe(413);
    expect(full.body.code).toBe("quota_exceeded");
    expect((await annA.ask("delete_message", { messageId: big.body.message.id })).error).toBeUndefined();
    expect((await b.call("POST", "/api/messages/upload", { token: ann.token, body: voiceForm(ben.user.id) })).status).toBe(201);
  });
});
