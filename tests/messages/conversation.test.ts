import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { makeTestApp, registerUser, type TestApp } from "../support/app.ts";
import { fileOf, uploadForm } from "../uploads/fixtures.ts";
import { sendText, sendTexts } from "./seed.ts";

let t: TestApp;
let alice: Awaited<ReturnType<typeof registerUser>>;
let bob: Awaited<ReturnType<typeof registerUser>>;
let carol: Awaited<ReturnType<typeof registerUser>>;

beforeAll(async () => {
  t = makeTestApp();
  [alice, bob, carol] = [await registerUser(t), await registerUser(t), await registerUser(t)];
});
afterAll(() => t.close());

const page = (token: string, contactId: number, query = "") => t.call("GET", `/api/messages/${contactId}${query}`, { token });

describe("GET /api/messages/:contactId", () => {
  test("answers both sides of the conversation oldest first, with the paging fields", async () => {
    await sendText(t, alice.user.id, bob.user.id, "hi bob");
    await sendText(t, bob.user.id, alice.user.id, "hi alice");
    await sendText(t, alice.user.id, carol.user.id, "not in this chat");

    const res = await page(alice.token, bob.user.id);
    expect(res.status).toBe(200);
    expect(res.body.messages.map((m: { content: string }) => m.content)).toEqual(["hi bob", "hi alice"]);
    expect(res.body.hasMore).toBe(false);
    expect(res.body.oldestMessageTime).toBe(res.body.messages[0].created_at);
    const [first] = res.body.messages;
    expect(Object.keys(first)).toEqual(
      expect.arrayContaining(["id", "sender_id", "receiver_id", "sender_name", "content", "message_type", "file_name", "file_path", "file_size", "group_id", "created_at", "is_delivered", "delivered_at", "is_read", "read_at", "partner_id"]),
    );
    expect(first.sender_name).toBe(alice.user.name);
    expect(first.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  test("gives the same conversation to the other person", async () => {
    const res = await page(bob.token, alice.user.id);
    expect(res.body.messages.map((m: { content: string }) => m.content)).toEqual(["hi bob", "hi alice"]);
  });

  test("pages backwards with before until hasMore is false, never skipping or repeating", async () => {
    const dave = await registerUser(t);
    const ids = await sendTexts(t, alice.user.id, dave.user.id, 7);
    const seen: number[] = [];
    let before = "";
    for (let i = 0; i < 10; i++) {
      const res = await page(alice.token, dave.user.id, `?limit=3${before ? `&before=${encodeURIComponent(before)}` : ""}`);
      expect(res.status).toBe(200);
      seen.unshift(...res.body.messages.map((m: { id: number }) => m.id));
      if (!res.body.hasMore) break;
      before = res.body.oldestMessageTime;
    }
    expect(seen).toEqual(ids);
  });

  test("never skips or repeats the ten files of one upload across pages of three", async () => {
    const erin = await registerUser(t);
    await sendText(t, alice.user.id, erin.user.id, "before the files");
    const files = Array.from({ length: 10 }, (_, i) => fileOf(`file ${i}`, `f${i}.txt`));
    const upload = await t.call("POST", "/api/messages/upload-multiple", { token: alice.token, body: uploadForm(erin.user.id, "files", files) });
    expect(upload.status).toBe(201);
    await sendText(t, erin.user.id, alice.user.id, "after the files");

    const seen: number[] = [];
    let before: string | null = null;
    let pages = 0;
    do {
      const query: string = `?limit=3${before ? `&before=${encodeURIComponent(before)}` : ""}`;
      const res = await page(erin.token, alice.user.id, query);
      seen.unshift(...res.body.messages.map((m: { id: number }) => m.id));
      before = res.body.hasMore ? res.body.oldestMessageTime : null;
      pages += 1;
    } while (before && pages < 10);

    const all = (await page(erin.token, alice.user.id, "?limit=100")).body.messages.map((m: { id: number }) => m.id);
    expect(all).toHaveLength(12);
    expect(seen).toEqual(all);
    expect(new Set(seen).size).toBe(12);
    expect(pages).toBe(4);
  });

  test("reads before in any zone: a cursor with an offset means the same instant", async () => {
    const gina = await registerUser(t);
    await sendTexts(t, alice.user.id, gina.user.id, 4);
    const latest = (await page(alice.token, gina.user.id, "?limit=2")).body;
    const instant = new Date(latest.oldestMessageTime);
    const shifted = new Date(instant.getTime() + 2 * 3600_000).toISOString().replace("Z", "+02:00");
    const inUtc = await page(alice.token, gina.user.id, `?limit=2&before=${encodeURIComponent(latest.oldestMessageTime)}`);
    const inOffset = await page(alice.token, gina.user.id, `?limit=2&before=${encodeURIComponent(shifted)}`);
    expect(inOffset.status).toBe(200);
    expect(inOffset.body).toEqual(inUtc.body);
    expect(inUtc.body.messages.map((m: { content: string }) => m.content)).toEqual(["message 1", "message 2"]);
  });

  test("uses 50 messages as the default page, allows up to 100 and caps a larger limit at 100", async () => {
    const frank = await registerUser(t);
    await sendTexts(t, frank.user.id, alice.user.id, 101);
    const byDefault = await page(alice.token, frank.user.id);
    expect(byDefault.body.messages).toHaveLength(50);
    expect(byDefault.body.hasMore).toBe(true);
    expect(byDefault.body.messages.at(-1).content).toBe("message 101");
    const most = await page(alice.token, frank.user.id, "?limit=100");
    expect(most.body.messages).toHaveLength(100);
    expect(most.body.hasMore).toBe(true);
    const capped = await page(alice.token, frank.user.id, "?limit=1000");
    expect(capped.status).toBe(200);
    expect(capped.body.messages).toHaveLength(100);
  });

  test("answers an empty page for a person with no messages yet", async () => {
    const stranger = await registerUser(t);
    const res = await page(alice.token, stranger.user.id);
    expect(res.body).toEqual({ messages: [], hasMore: false, oldestMessageTime: null, contact: false });
  });

  test.each([["?limit=0"], ["?limit=abc"], ["?limit=2.5"], ["?before=yesterday"], ["?before=2026-13-45T99:00:00Z"], ["?before=12345"], ["?before=2026-11-22T10:31:00"]])(
    "refuses the query %s with a validation error",
    async (query) => {
      const res = await page(alice.token, bob.user.id, query);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe("validation");
    },
  );

  test("refuses a contact id that is not a number, and one's own id", async () => {
    for (const id of ["abc", "0", "-1", "1e3"]) {
      const res = await t.call("GET", `/api/messages/${id}`, { token: alice.token });
      expect(res.status).toBe(400);
    }
    expect((await page(alice.token, alice.user.id)).status).toBe(400);
  });

  test("answers 404 for a person who does not exist", async () => {
    const res = await page(alice.token, 999999);
    expect(res.status).toBe(404);
    expect(res.body.code).toBe("not_found");
  });

  test("answers 401 without a bearer token, even with the session cookie", async () => {
    expect((await t.call("GET", `/api/messages/${bob.user.id}`)).status).toBe(401);
    const withCookie = await t.call("GET", `/api/messages/${bob.user.id}`, { headers: { cookie: `sid=${alice.token}` } });
    expect(withCookie.status).toBe(401);
  });
});
