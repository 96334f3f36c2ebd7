// Replies, edits, deletions for everyone and reactions over the socket, and what history, the
// chat list, unread counts and reports show of them afterwards (API.md "Messages: replies, edits,
// deletions, reactions, voice").
import { describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { registerUser } from "../support/app.ts";
import { closeSockets, type ConnectedUser, connectedUser, listeningApp } from "../support/listening.ts";
import { connect, settled } from "../support/ws.ts";
import { fileOf, uploadForm } from "../uploads/fixtures.ts";

const t = listeningApp({ SOCKET_RATE_LIMIT: "20:40" });

async function pair(): Promise<{ a: ConnectedUser; b: ConnectedUser }> {
  return { a: await connectedUser(t, { name: "Ann" }), b: await connectedUser(t, { name: "Ben" }) };
}

async function send(from: ConnectedUser, to: ConnectedUser, content: string, extra: Record<string, unknown> = {}) {
  const ack = await from.s.ask("send_message", { receiverId: to.user.id, content, ...extra });
  if (ack.error) throw new Error(`send refused: ${ack.error.code}`);
  await to.s.next("new_message");
  return ack.data.message;
}

const page = async (viewer: ConnectedUser, other: ConnectedUser) =>
  (await t.call("GET", `/api/messages/${other.user.id}`, { token: viewer.token })).body.messages as any[];

const ageMessage = (id: number, ms: number) => t.sql("UPDATE messages SET created_at = created_at - ? WHERE id = ?", ms, id);


describe("every message carries the new fields", () => {
  test("a new text message: no reply, not edited, not deleted, no reactions, no duration", async () => {
    const { a, b } = await pair();
    const message = await send(a, b, "plain");
    expect(message).toMatchObject({ reply_to: null, edited_at: null, deleted_at: null, reactions: [], duration_ms: null, partner_id: b.user.id });
    const [stored] = await page(b, a);
    expect(stored).toMatchObject({ reply_to: null, edited_at: null, deleted_at: null, reactions: [], duration_ms: null, partner_id: a.user.id });
    closeSockets(a, b);
  });
});

describe("replies", () => {
  test("a reply carries the quoted message to both sides and in history, its content cut at 100 characters", async () => {
    const { a, b } = await pair();
    const long = "é".repeat(60) + "😀".repeat(40);
    const original = await send(b, a, long);
    const ack = await a.s.ask("send_message", { receiverId: b.user.id, content: "answer", replyToId: original.id });
    const expected = { id: original.id, sender_name: "Ben", message_type: "text" };
    expect(ack.data.message.reply_to).toMatchObject(expected);
    expect(ack.data.message.reply_to.content.length).toBeLessThanOrEqual(100);
    expect(long.startsWith(ack.data.message.reply_to.content)).toBe(true);
    const incoming = await b.s.next("new_message", undefined, (f) => f.data.message.id === ack.data.message.id);
    expect(incoming.data.message.reply_to).toEqual(ack.data.message.reply_to);
    expect(incoming.data.message.partner_id).toBe(a.user.id);
    const history = await page(b, a);
    expect(history.at(-1).reply_to).toEqual(ack.data.message.reply_to);
    closeSockets(a, b);
  });

  test("refuses a reply to a message of another conversation, an unknown one and a deleted one, storing nothing", async () => {
    const { a, b } = await pair();
    const c = await connectedUser(t, { name: "Cat" });
    const elsewhere = await send(c, a, "from Cat");
    const ours = await send(a, b, "to delete");
    expect((await a.s.ask("delete_message", { messageId: ours.id })).error).toBeUndefined();
    for (const replyToId of [elsewhere.id, 999_999_999, ours.id]) {
      const ack = await a.s.ask("send_message", { receiverId: b.user.id, content: "reply", replyToId });
      expect(ack.error?.code).toBe(replyToId === ours.id ? "validation" : "not_found");
    }
    const [count] = await t.sql<{ n: number }>("SELECT CAST(count(*) AS INTEGER) AS n FROM messages WHERE sender_id = ? AND content = 'reply'", a.user.id);
    expect(count!.n).toBe(0);
    closeSockets(a, b, c);
  });

  test("a quote shows the original as it is now: empty once the original is deleted", async () => {
    const { a, b } = await pair();
    const original = await send(a, b, "soon gone");
    const reply = await send(b, a, "re", { replyToId: original.id });
    await a.s.ask("delete_message", { messageId: original.id });
    const history = await page(a, b);
    expect(history.find((m) => m.id === reply.id).reply_to).toEqual({ id: original.id, sender_name: "Ann", message_type: "text", content: "" });
    closeSockets(a, b);
  });
});

describe("edit_message", () => {
  test("the sender edits a text message: message_edited to both people's sockets, history and the chat list follow", async () => {
    const { a, b } = await pair();
    const message = await send(a, b, "helo");
    const ack = await a.s.ask("edit_message", { messageId: message.id, content: "  hello  " });
    expect(ack.error).toBeUndefined();
    expect(ack.data).toMatchObject({ messageId: message.id, content: "hello" });
    expect(ack.data.edited_at).toMatch(/Z$/);
    expect((await a.s.next("message_edited")).data).toEqual(ack.data);
    expect((await b.s.next("message_edited")).data).toEqual(ack.data);
    const [stored] = await page(b, a);
    expect(stored).toMatchObject({ content: "hello", edited_at: ack.data.edited_at });
    const list = (await t.call("GET", "/api/messages/chat-users-with-messages", { token: b.token })).body.users;
    expect(list[0].latest_message).toMatchObject({ id: message.id, content: "hello", edited_at: ack.data.edited_at });
    closeSockets(a, b);
  });

  test("refuses someone else's message, an unknown one, a file, an empty text and an edit after 15 minutes", async () => {
    const { a, b } = await pair();
    const outsider = await connectedUser(t);
    const mine = await send(a, b, "mine");
    expect((await b.s.ask("edit_message", { messageId: mine.id, content: "theirs" })).error?.code).toBe("forbidden");
    expect((await outsider.s.ask("edit_message", { messageId: mine.id, content: "x" })).error?.code).toBe("not_found");
    expect((await a.s.ask("edit_message", { messageId: 999_999_999, content: "x" })).error?.code).toBe("not_found");
    expect((await a.s.ask("edit_message", { messageId: mine.id, content: "   " })).error?.code).toBe("validation");
    const upload = await t.call("POST", "/api/messages/upload", { token: a.token, body: uploadForm(b.user.id, "file", [fileOf("a file", "note.txt")]) });
    expect((await a.s.ask("edit_message", { messageId: upload.body.message.id, content: "x" })).error?.code).toBe("validation");
    await ageMessage(mine.id, 15 * 60 * 1000 + 1000);
    expect((await a.s.ask("edit_message", { messageId: mine.id, content: "late" })).error?.code).toBe("forbidden");
    expect(await b.s.silent("message_edited", a.s, outsider.s)).toBe(true);
    expect((await page(a, b)).find((m) => m.id === mine.id)).toMatchObject({ content: "mine", edited_at: null });
    closeSockets(a, b, outsider);
  });

  test("an edit 14 minutes after sending is still accepted", async () => {
    const { a, b } = await pair();
    const mine = await send(a, b, "early");
    await ageMessage(mine.id, 14 * 60 * 1000);
    expect((await a.s.ask("edit_message", { messageId: mine.id, content: "in time" })).error).toBeUndefined();
    closeSockets(a, b);
  });
});

describe("delete_message", () => {
  test("deletes an own message for everyone: message_deleted to both, history keeps its id and times with nothing of it", async () => {
    const { a, b } = await pair();
    const message = await send(a, b, "oops");
    const ack = await a.s.ask("delete_message", { messageId: message.id });
    expect(ack.data).toMatchObject({ messageId: message.id });
    expect(ack.data.deleted_at).toMatch(/Z$/);
    expect((await a.s.next("message_deleted")).data).toEqual(ack.data);
    expect((await b.s.next("message_deleted")).data).toEqual(ack.data);
    const [stored] = await page(b, a);
    expect(stored).toMatchObject({ id: message.id, created_at: message.created_at, content: "", file_path: null, file_name: null, file_size: null, deleted_at: ack.data.deleted_at });
    const list = (await t.call("GET", "/api/messages/chat-users-with-messages", { token: b.token })).body.users;
    expect(list[0].latest_message).toMatchObject({ id: message.id, content: "", deleted_at: ack.data.deleted_at });
    closeSockets(a, b);
  });

  test("removes the file from disk and frees it from the sender's quota", async () => {
    const { a, b } = await pair();
    const upload = await t.call("POST", "/api/messages/upload", { token: a.token, body: uploadForm(b.user.id, "file", [fileOf("x".repeat(5000), "note.txt")]) });
    expect(upload.status).toBe(201);
    const onDisk = join(t.dataDir, "uploads", upload.body.message.file_path);
    expect(existsSync(onDisk)).toBe(true);
    const used = t.ctx.uploads.ledger.usedBy(a.user.id);
    expect((await a.s.ask("delete_message", { messageId: upload.body.message.id })).error).toBeUndefined();
    expect(existsSync(onDisk)).toBe(false);
    expect(t.ctx.uploads.ledger.usedBy(a.user.id)).toBe(used - 5000);
    expect((await t.call("GET", `/uploads/${upload.body.message.file_path}`, { token: b.token })).status).toBe(404);
    closeSockets(a, b);
  });

  test("an unread message deleted leaves the receiver's unread counts, and reading later counts only the rest", async () => {
    const a = await connectedUser(t, { name: "Ann" });
    const b = await registerUser(t, { name: "Ben" });
    const unread = async () => (await t.call("GET", "/api/messages/unread/count", { token: b.token })).body.unread_count;
    const first = (await a.s.ask("send_message", { receiverId: b.user.id, content: "one" })).data.message;
    await a.s.ask("send_message", { receiverId: b.user.id, content: "two" });
    expect(await unread()).toBe(2);
    await a.s.ask("delete_message", { messageId: first.id });
    expect(await unread()).toBe(1);
    const list = (await t.call("GET", "/api/messages/chat-users-with-messages", { token: b.token })).body.users;
    expect(list[0].unread_count).toBe(1);
    const read = await t.call("PUT", `/api/messages/mark-read/${a.user.id}`, { token: b.token });
    expect(read.body.updatedCount).toBe(1);
    expect(await unread()).toBe(0);
    // Reading again leaves the count at 0, not below.
    await a.s.ask("send_message", { receiverId: b.user.id, content: "three" });
    expect(await unread()).toBe(1);
    a.s.close();
  });

  test("refuses the other person's message and an unknown one; deleting twice is refused and tells nobody", async () => {
    const { a, b } = await pair();
    const message = await send(a, b, "stay");
    expect((await b.s.ask("delete_message", { messageId: message.id })).error?.code).toBe("forbidden");
    expect((await b.s.ask("delete_message", { messageId: 999_999_999 })).error?.code).toBe("not_found");
    await a.s.ask("delete_message", { messageId: message.id });
    await b.s.next("message_deleted");
    expect((await a.s.ask("delete_message", { messageId: message.id })).error?.code).toBe("validation");
    expect(await b.s.silent("message_deleted", a.s)).toBe(true);
    closeSockets(a, b);
  });
});

describe("react", () => {
  test("one reaction per person: a new one replaces, the same again removes; both hear every change; history groups them", async () => {
    const { a, b } = await pair();
    const message = await send(a, b, "react to me");
    const heard = async (emoji: string | null) => {
      for (const s of [a.s, b.s]) expect((await s.next("message_reaction")).data).toEqual({ messageId: message.id, userId: b.user.id, emoji });
    };
    expect((await b.s.ask("react", { messageId: message.id, emoji: "👍" })).data).toEqual({ messageId: message.id, userId: b.user.id, emoji: "👍" });
    await heard("👍");
    await b.s.ask("react", { messageId: message.id, emoji: "❤️" });
    await heard("❤️");
    await a.s.ask("react", { messageId: message.id, emoji: "❤" });
    await a.s.next("message_reaction");
    await b.s.next("message_reaction");
    const [stored] = await page(a, b);
    // In the order people reacted; two reactions in one millisecond may come either way.
    expect(stored.reactions.map((r: any) => ({ ...r, user_ids: r.user_ids.toSorted() }))).toEqual([{ emoji: "❤️", user_ids: [a.user.id, b.user.id].toSorted() }]);
    expect((await b.s.ask("react", { messageId: message.id, emoji: "❤️" })).data.emoji).toBeNull();
    await heard(null);
    expect((await page(a, b))[0].reactions).toEqual([{ emoji: "❤️", user_ids: [a.user.id] }]);
    closeSockets(a, b);
  });

  test("only the seven quick reactions; not on a deleted message; not by someone outside the conversation", async () => {
    const { a, b } = await pair();
    const outsider = await connectedUser(t);
    const message = await send(a, b, "hi");
    for (const emoji of ["🍕", "a", "👍👍", "👍🏽"]) expect((await b.s.ask("react", { messageId: message.id, emoji })).error?.code).toBe("validation");
    expect((await outsider.s.ask("react", { messageId: message.id, emoji: "👍" })).error?.code).toBe("not_found");
    await b.s.ask("react", { messageId: message.id, emoji: "😃" });
    await a.s.ask("delete_message", { messageId: message.id });
    expect((await b.s.ask("react", { messageId: message.id, emoji: "👍" })).error?.code).toBe("validation");
    // A deleted message's reactions go with it.
    expect((await page(a, b))[0].reactions).toEqual([]);
    closeSockets(a, b, outsider);
  });
});

describe("blocks, the privacy setting and rate limits apply as to send_message", () => {
  test("after a block either way, edits, deletions, reactions and replies are refused and nobody hears of them", async () => {
    const { a, b } = await pair();
    const mine = await send(a, b, "before the block");
    const theirs = await send(b, a, "theirs");
    expect((await t.call("POST", "/api/blocks", { token: b.token, json: { userId: a.user.id } })).status).toBeLessThan(300);
    expect((await a.s.ask("edit_message", { messageId: mine.id, content: "changed" })).error?.code).toBe("blocked");
    expect((await a.s.ask("delete_message", { messageId: mine.id })).error?.code).toBe("blocked");
    expect((await a.s.ask("react", { messageId: theirs.id, emoji: "👍" })).error?.code).toBe("blocked");
    expect((await b.s.ask("react", { messageId: mine.id, emoji: "👍" })).error?.code).toBe("blocked");
    expect((await a.s.ask("send_message", { receiverId: b.user.id, content: "re", replyToId: theirs.id })).error?.code).toBe("blocked");
    await settled(a.s);
    expect(b.s.saw("message_edited") || b.s.saw("message_deleted") || b.s.saw("message_reaction")).toBe(false);
    closeSockets(a, b);
  });

  test("someone who accepts only contacts refuses edits and reactions from a person they never wrote to", async () => {
    const { a, b } = await pair();
    const message = await send(a, b, "hello stranger");
    expect((await t.call("PUT", "/api/users/privacy", { token: b.token, json: { allowFrom: "contacts" } })).status).toBe(200);
    expect((await a.s.ask("edit_message", { messageId: message.id, content: "changed" })).error?.code).toBe("not_accepting");
    expect((await a.s.ask("react", { messageId: message.id, emoji: "👍" })).error?.code).toBe("not_accepting");
    // b may still react: a wrote to b, so a accepts b.
    expect((await b.s.ask("react", { messageId: message.id, emoji: "👍" })).error).toBeUndefined();
    closeSockets(a, b);
  });
});

describe("rate limits", () => {
  const limited = listeningApp({ SOCKET_RATE_LIMIT: "2:4" });

  test("edits, deletions and reactions spend the socket's event budget; past it nothing is stored", async () => {
    const a = await connectedUser(limited, { name: "Ann" });
    const b = await connectedUser(limited, { name: "Ben" });
    const message = (await a.s.ask("send_message", { receiverId: b.user.id, content: "fast" })).data.message;
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => b.s.ask("react", { messageId: message.id, emoji: i % 2 ? "👍" : "😃" })));
    const refused = answers.filter((answer) => answer.error?.code === "rate_limited").length;
    expect(refused).toBeGreaterThan(0);
    const edits = await Promise.all(Array.from({ length: 8 }, (_, i) => a.s.ask("edit_message", { messageId: message.id, content: `v${i}` })));
    expect(edits.some((answer) => answer.error?.code === "rate_limited")).toBe(true);
    closeSockets(a, b);
  });
});

describe("reports keep messages as they were when reported", () => {
  test("the copied messages show an edit and a deletion, and later edits do not rewrite the copy", async () => {
    const { a, b } = await pair();
    const edited = await send(a, b, "first words");
    await a.s.ask("edit_message", { messageId: edited.id, content: "second words" });
    const deleted = await send(a, b, "regretted");
    await a.s.ask("delete_message", { messageId: deleted.id });
    const later = await send(a, b, "still here");
    const report = await t.call("POST", "/api/reports", { token: b.token, json: { reportedUserId: a.user.id, context: "chat", reason: "harassment" } });
    expect(report.status).toBe(201);
    await a.s.ask("edit_message", { messageId: later.id, content: "changed after the report" });
    const [row] = await t.sql<{ transcript: string }>("SELECT transcript FROM reports WHERE id = ?", report.body.id ?? report.body.report?.id);
    if (!row) throw new Error("the report was not stored");
    const lines = JSON.parse(row.transcript) as { id: number; content: string; edited_at: string | null; deleted_at: string | null }[];
    expect(lines.find((l) => l.id === edited.id)).toMatchObject({ content: "second words", deleted_at: null });
    expect(lines.find((l) => l.id === edited.id)?.edited_at).toMatch(/Z$/);
    expect(lines.find((l) => l.id === deleted.id)).toMatchObject({ content: "", edited_at: null });
    expect(lines.find((l) => l.id === deleted.id)?.deleted_at).toMatch(/Z$/);
    expect(lines.find((l) => l.id === later.id)).toMatchObject({ content: "still here", edited_at: null });
    closeSockets(a, b);
  });
});

describe("refusals over the socket in the page's language", () => {
  test("the socket's language is chosen like a page's: lang cookie, then the account, then Accept-Language; the code never changes", async () => {
    const { a, b } = await pair();
    const mine = await send(a, b, "mine");
    const byCookie = await connect(t.wsUrl, b.token, { cookie: "lang=fr", "accept-language": "de" });
    const byHeader = await connect(t.wsUrl, b.token, { "accept-language": "de" });
    try {
      expect((await byCookie.ask("edit_message", { messageId: mine.id, content: "theirs" })).error).toEqual({ code: "forbidden", message: "Tu ne peux modifier que tes propres messages" });
      expect((await byHeader.ask("delete_message", { messageId: mine.id })).error).toEqual({ code: "forbidden", message: "Du kannst nur deine eigenen Nachrichten löschen" });
      expect((await b.s.ask("react", { messageId: mine.id, emoji: "🍕" })).error?.message).toStartWith("React with one of ");
      expect((await t.call("PUT", "/api/users/locale", { token: b.token, json: { locale: "tr" } })).status).toBe(200);
      const byAccount = await connect(t.wsUrl, b.token, { "accept-language": "de" });
      try {
        expect((await byAccount.ask("edit_message", { messageId: mine.id, content: "x" })).error?.message).toBe("Yalnızca kendi mesajlarını düzenleyebilirsin");
      } finally {
        byAccount.close();
      }
    } finally {
      byCookie.close();
      byHeader.close();
      closeSockets(a, b);
    }
  });
});
