// POST /api/reports over HTTP (API.md "Safety"): who can be reported, the evidence kept, merges,
// the hourly limit and every refusal.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { reports, users } from "../../src/storage/tables.ts";
import { storeText } from "../../src/messages/service.ts";
import { RouletteQueue } from "../../src/roulette/queue.ts";
import { makeTestApp, registerUser, type TestApp } from "../support/app.ts";
import { listeningApp } from "../support/listening.ts";
import { connect } from "../support/ws.ts";
import { pairUp } from "../support/roulette.ts";
import { bytesOf, fileOf, jpegWithExif, pngBytes, pngOfSize } from "../uploads/fixtures.ts";

// Registering hashes passwords: slow on a busy machine.
setDefaultTimeout(20_000);

const t = listeningApp({ SIGNUP_RATE_LIMIT: "1000" });

const person = () => registerUser(t);
const report = (token: string, json: unknown) => t.call("POST", "/api/reports", { token, json });
const row = async (id: number) => (await t.ctx.db.select().from(reports).where(eq(reports.id, id)).limit(1))[0]!;

function form(fields: Record<string, string | number>, evidence?: File): FormData {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) body.append(name, String(value));
  if (evidence) body.append("evidence", evidence);
  return body;
}

/** Two players paired in roulette; answers the pairing id. */
async function roulettePair() {
  const a = await person();
  const b = await person();
  const sa = await connect(t.wsUrl, a.token);
  const sb = await connect(t.wsUrl, b.token);
  const id = await pairUp({ s: sa, user: a.user }, { s: sb, user: b.user });
  return { a, b, sa, sb, id };
}

describe("filing a report", () => {
  test("a profile report answers 201 with an open report and stores who, what, why and when", async () => {
    const me = await person();
    const them = await person();
    const r = await report(me.token, { reportedUserId: them.user.id, context: "profile", reason: "spam", details: "  sells followers  " });
    expect(r.status).toBe(201);
    expect(r.body).toEqual({ report: { id: expect.any(Number), status: "open", created_at: expect.any(String) } });
    expect(new Date(r.body.report.created_at).toISOString()).toBe(r.body.report.created_at);
    expect(await row(r.body.report.id)).toMatchObject({
      reporterId: me.user.id,
      reportedId: them.user.id,
      context: "profile",
      reason: "spam",
      details: "sells followers",
      status: "open",
      transcript: null,
      evidencePath: null,
    });
  });

  test("a chat report copies the last 50 messages of the conversation, with file names and paths", async () => {
    const me = await person();
    const them = await person();
    const [meRow, themRow] = await Promise.all([me, them].map(async (p) => (await t.ctx.db.select().from(users).where(eq(users.id, p.user.id)).limit(1))[0]!));
    for (let i = 0; i < 60; i++) {
      const [from, to] = i % 2 ? [meRow, themRow] : [themRow, meRow];
      await storeText(t.ctx.db, t.ctx.clock, from!, { receiverId: to!.id, content: `message ${i}` });
    }
    const r = await report(me.token, { reportedUserId: them.user.id, context: "chat", reason: "harassment" });
    expect(r.status).toBe(201);
    const transcript = JSON.parse((await row(r.body.report.id)).transcript!);
    expect(transcript).toHaveLength(50);
    expect(transcript[0]).toMatchObject({ sender_id: them.user.id, receiver_id: me.user.id, content: "message 10", message_type: "text", file_name: null, file_path: null });
    expect(transcript.at(-1)).toMatchObject({ sender_id: me.user.id, content: "message 59", created_at: expect.any(String) });
  });

  test("a message report names a message of that conversation, and carries it even when it is older than the last 50", async () => {
    const me = await person();
    const them = await person();
    const stranger = await person();
    const [meRow, themRow, strangerRow] = await Promise.all([me, them, stranger].map(async (p) => (await t.ctx.db.select().from(users).where(eq(users.id, p.user.id)).limit(1))[0]!));
    const first = (await storeText(t.ctx.db, t.ctx.clock, themRow!, { receiverId: me.user.id, content: "the bad one" })).row;
    for (let i = 0; i < 55; i++) await storeText(t.ctx.db, t.ctx.clock, meRow!, { receiverId: them.user.id, content: `reply ${i}` });
    const elsewhere = (await storeText(t.ctx.db, t.ctx.clock, strangerRow!, { receiverId: me.user.id, content: "not theirs" })).row;
    expect((await report(me.token, { reportedUserId: them.user.id, context: "message", reason: "harassment" })).body.fields.messageId).toBeString();
    expect((await report(me.token, { reportedUserId: them.user.id, context: "message", reason: "harassment", messageId: elsewhere.id })).status).toBe(404);
    const r = await report(me.token, { reportedUserId: them.user.id, context: "message", reason: "harassment", messageId: first.id });
    expect(r.status).toBe(201);
    const stored = await row(r.body.report.id);
    expect(stored.messageId).toBe(first.id);
    const transcript = JSON.parse(stored.transcript!);
    expect(transcript).toHaveLength(51);
    expect(transcript[0]).toMatchObject({ id: first.id, content: "the bad one" });
  });

  test("a roulette report stores the still as a JPEG without metadata, copies the text chat and ends the session like Next", async () => {
    const { a, b, sa, sb, id } = await roulettePair();
    await sb.ask("roulette_text", { partnerId: id, text: "show me" });
    await sa.ask("roulette_text", { partnerId: id, text: "no" });
    const still = await jpegWithExif(640, 480);
    expect((await sharp(still).metadata()).exif).toBeDefined();
    const r = await t.call("POST", "/api/reports", {
      token: a.token,
      body: form({ rouletteId: id, context: "roulette", reason: "sexual_content", details: "flashed the camera", stillBackend: "wasm-simd" }, fileOf(still, "still.jpg", "image/jpeg")),
    });
    expect(r.status).toBe(201);
    await sb.next("roulette_partner_next");
    expect(await sa.silent("roulette_partner_next")).toBe(true);
    expect(t.ctx.roulette.partnerOf(a.user.id)).toBeUndefined();

    const stored = await row(r.body.report.id);
    expect(stored).toMatchObject({ reporterId: a.user.id, reportedId: b.user.id, context: "roulette", rouletteId: id, reason: "sexual_content", stillBackend: "wasm-simd" });
    expect(stored.evidencePath).toMatch(/^evidence\/[0-9a-f]{32}\.jpg$/);
    const file = join(t.dataDir, stored.evidencePath!);
    expect(existsSync(join(t.dataDir, "uploads", stored.evidencePath!))).toBe(false);
    const meta = await sharp(readFileSync(file)).metadata();
    expect(meta).toMatchObject({ format: "jpeg", width: 640, height: 480 });
    expect(meta.exif).toBeUndefined();
    expect(meta.xmp).toBeUndefined();
    expect(readFileSync(file).includes(Buffer.from("secret location"))).toBe(false);
    expect(JSON.parse(stored.transcript!)).toEqual([
      { sender_id: b.user.id, text: "show me", at: expect.any(String) },
      { sender_id: a.user.id, text: "no", at: expect.any(String) },
    ]);
    sa.close();
    sb.close();
  });

  test("the backend of the reporter's nudity check is kept with the still only: another value is a 400", async () => {
    const { a, sa, sb, id } = await roulettePair();
    const wrong = await t.call("POST", "/api/reports", {
      token: a.token,
      body: form({ rouletteId: id, context: "roulette", reason: "other", stillBackend: "gpu-magic" }, fileOf(await pngBytes(20, 10), "a.png", "image/png")),
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.fields.stillBackend).toBe("stillBackend must be one of wasm-simd, wasm, webgl, cpu");
    // Without a still there is nothing to record it with.
    const r = await report(a.token, { rouletteId: id, context: "roulette", reason: "other", stillBackend: "cpu" });
    expect(r.status).toBe(201);
    expect((await row(r.body.report.id)).stillBackend).toBeNull();
    sa.close();
    sb.close();
  });

  test("a roulette partner can be reported after the session ended, but only by those who took part", async () => {
    const { a, b, sa, sb, id } = await roulettePair();
    sa.send("roulette_next", {});
    await sb.next("roulette_partner_next");
    const outsider = await person();
    expect((await report(outsider.token, { rouletteId: id, context: "roulette", reason: "spam" })).status).toBe(404);
    expect((await report(a.token, { rouletteId: "made-up-id", context: "roulette", reason: "spam" })).status).toBe(404);
    const r = await report(b.token, { rouletteId: id, context: "roulette", reason: "violence" });
    expect(r.status).toBe(201);
    expect((await row(r.body.report.id)).reportedId).toBe(a.user.id);
    sa.close();
    sb.close();
  });
});

describe("merging", () => {
  test("a second report of the same person in the same context within 10 minutes adds to the first: 200, same id", async () => {
    const { a, sa, sb, id } = await roulettePair();
    const first = await t.call("POST", "/api/reports", {
      token: a.token,
      body: form({ rouletteId: id, context: "roulette", reason: "harassment", details: "insults" }, fileOf(await pngBytes(20, 10), "a.png", "image/png")),
    });
    expect(first.status).toBe(201);
    const firstStill = (await row(first.body.report.id)).evidencePath!;
    const second = await t.call("POST", "/api/reports", {
      token: a.token,
      body: form({ rouletteId: id, context: "roulette", reason: "sexual_content", details: "then worse" }, fileOf(await jpegWithExif(30, 10), "b.jpg", "image/jpeg")),
    });
    expect(second.status).toBe(200);
    expect(second.body.report).toEqual(first.body.report);
    const merged = await row(first.body.report.id);
    expect(merged.details).toBe("insults\n\nthen worse");
    // The newer still is kept (a JPEG now 30 px wide); the older one is gone.
    expect(merged.evidencePath).not.toBe(firstStill);
    expect((await sharp(readFileSync(join(t.dataDir, merged.evidencePath!))).metadata()).width).toBe(30);
    expect(existsSync(join(t.dataDir, firstStill))).toBe(false);
    // A severe reason is never lost in a merge.
    expect(merged.reason).toBe("sexual_content");
    sa.close();
    sb.close();
  });

  test("reports by different people, or in another context, never merge", async () => {
    const target = await person();
    const one = await person();
    const two = await person();
    const a = await report(one.token, { reportedUserId: target.user.id, context: "profile", reason: "spam" });
    const b = await report(two.token, { reportedUserId: target.user.id, context: "profile", reason: "spam" });
    const c = await report(one.token, { reportedUserId: target.user.id, context: "chat", reason: "spam" });
    expect([a.status, b.status, c.status]).toEqual([201, 201, 201]);
    expect(new Set([a.body.report.id, b.body.report.id, c.body.report.id]).size).toBe(3);
  });
});

describe("limits and refusals", () => {
  test("allows 20 reports an hour, then answers 429 with Retry-After; merges still go through", async () => {
    const me = await person();
    const targets = [];
    for (let i = 0; i < 21; i++) targets.push(await person());
    for (const target of targets.slice(0, 20)) {
      expect((await report(me.token, { reportedUserId: target.user.id, context: "profile", reason: "spam" })).status).toBe(201);
    }
    const refused = await report(me.token, { reportedUserId: targets[20]!.user.id, context: "profile", reason: "spam" });
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe("rate_limited");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    const merged = await report(me.token, { reportedUserId: targets[0]!.user.id, context: "profile", reason: "spam", details: "more" });
    expect(merged.status).toBe(200);
  }, 60_000);

  test("refuses reporting yourself (400), an unknown user (404), and anonymous callers (401)", async () => {
    const me = await person();
    const self = await report(me.token, { reportedUserId: me.user.id, context: "profile", reason: "spam" });
    expect(self.status).toBe(400);
    expect(self.body).toMatchObject({ code: "validation", fields: { reportedUserId: "You cannot report yourself" } });
    expect((await report(me.token, { reportedUserId: 99_999_999, context: "profile", reason: "spam" })).status).toBe(404);
    expect((await t.call("POST", "/api/reports", { json: { reportedUserId: 1, context: "profile", reason: "spam" } })).status).toBe(401);
  });

  test("answers 400 with the fields for a wrong context, reason, details or missing target", async () => {
    const me = await person();
    const them = await person();
    const check = async (json: unknown, field: string) => {
      const r = await report(me.token, json);
      expect(r.status).toBe(400);
      expect(r.body.code).toBe("validation");
      expect(typeof r.body.fields[field]).toBe("string");
    };
    await check({ reportedUserId: them.user.id, context: "elsewhere", reason: "spam" }, "context");
    await check({ reportedUserId: them.user.id, context: "profile", reason: "ugly" }, "reason");
    await check({ reportedUserId: them.user.id, context: "profile", reason: "spam", details: "x".repeat(1001) }, "details");
    await check({ context: "profile", reason: "spam" }, "reportedUserId");
    await check({ reportedUserId: them.user.id, context: "roulette", reason: "spam" }, "rouletteId");
    await check({ reportedUserId: them.user.id, rouletteId: "abc", context: "profile", reason: "spam" }, "rouletteId");
    await check({ reportedUserId: "abc", context: "profile", reason: "spam" }, "reportedUserId");
    expect((await report(me.token, { reportedUserId: them.user.id, context: "profile", reason: "spam", details: "x".repeat(1000) })).status).toBe(201);
  });

  test("refuses evidence that is not an image (415), too large (413), or sent with a chat report (400)", async () => {
    const { a, sa, sb, id } = await roulettePair();
    const send = (evidence: File, context = "roulette") =>
      t.call("POST", "/api/reports", { token: a.token, body: form({ rouletteId: id, context, reason: "other" }, evidence) });
    const script = await send(fileOf(bytesOf("<html><script>alert(1)</script></html>"), "still.jpg", "image/jpeg"));
    expect(script.status).toBe(415);
    expect(script.body.code).toBe("unsupported_type");
    const fake = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, ...bytesOf("not really a jpeg at all")]);
    expect((await send(fileOf(fake, "still.jpg", "image/jpeg"))).status).toBe(415);
    const big = await send(fileOf(await pngOfSize(2 * 1024 * 1024 + 1), "still.png", "image/png"));
    expect(big.status).toBe(413);
    expect(big.body.code).toBe("too_large");
    const huge = await send(fileOf(await pngOfSize(3 * 1024 * 1024), "still.png", "image/png"));
    expect(huge.status).toBe(413);
    const them = await person();
    const chat = await t.call("POST", "/api/reports", {
      token: a.token,
      body: form({ reportedUserId: them.user.id, context: "chat", reason: "other" }, fileOf(await pngBytes(), "a.png", "image/png")),
    });
    expect(chat.status).toBe(400);
    expect(typeof chat.body.fields.evidence).toBe("string");
    // None of these filed a report or ended the session.
    expect(t.ctx.roulette.partnerOf(a.user.id)).toBeDefined();
    sa.close();
    sb.close();
  });

  test("refuses a body that is neither JSON nor multipart with 415, and malformed JSON with 400", async () => {
    const me = await person();
    expect((await t.call("POST", "/api/reports", { token: me.token, body: "reason=spam", headers: { "content-type": "application/x-www-form-urlencoded" } })).status).toBe(415);
    expect((await t.call("POST", "/api/reports", { token: me.token, json: "{nope" })).status).toBe(400);
  });
});

describe("the 10-minute window after a roulette session", () => {
  let clocked: TestApp;
  let now = Date.now();
  beforeAll(() => {
    clocked = makeTestApp({ SIGNUP_RATE_LIMIT: "1000" });
    clocked.ctx.roulette = new RouletteQueue(() => now);
  });
  afterAll(() => clocked.close());

  test("a rouletteId can be reported until 10 minutes after the session ended, then it is unknown (404)", async () => {
    const url = clocked.listen().wsUrl;
    const [a, b, c] = [await registerUser(clocked), await registerUser(clocked), await registerUser(clocked)];
    const [sa, sb] = [await connect(url, a.token), await connect(url, b.token)];
    await sa.ask("roulette_search", { filters: { gender: "any", country: "any" } });
    await sb.ask("roulette_search", { filters: { gender: "any", country: "any" } });
    const id = (await sa.next("roulette_partner_found")).data.partner.id as string;
    await sa.ask("roulette_text", { partnerId: id, text: "kept for reports" });
    sb.send("roulette_next", {});
    await sa.next("roulette_partner_next");
    const fileBy = (token: string) => clocked.call("POST", "/api/reports", { token, json: { rouletteId: id, context: "roulette", reason: "spam" } });
    now += 10 * 60_000 - 1000;
    const inTime = await fileBy(b.token);
    expect(inTime.status).toBe(201);
    expect(JSON.parse((await clocked.ctx.db.select().from(reports).where(eq(reports.id, inTime.body.report.id)).limit(1))[0]!.transcript!)[0].text).toBe("kept for reports");
    now += 1000;
    const late = await fileBy(a.token);
    expect(late.status).toBe(404);
    expect(late.body.code).toBe("not_found");
    expect((await fileBy(c.token)).status).toBe(404);
    sa.close();
    sb.close();
  });
});
