// A report's page: the two people, the evidence (the still for moderators only), the snapshot,
// and the delete form for admins.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeTestApp } from "../support/app.ts";
import { csrfOf, guest, page, person, post, fileReport, reportRow, type Person } from "../support/moderation.ts";

const t = makeTestApp({ SIGNUP_RATE_LIMIT: "1000" });
afterAll(() => t.close());

let mod: Person;
let admin: Person;
let reporter: Person;
let reported: Person;
beforeAll(async () => {
  mod = await person(t, "moderator");
  admin = await person(t, "admin");
  reporter = await guest(t);
  reported = await person(t);
});

const jpeg = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 4, 0xff, 0xd9]);

function stillFile(name: string): string {
  mkdirSync(join(t.dataDir, "evidence"), { recursive: true });
  const rel = `evidence/${name}.jpg`;
  writeFileSync(join(t.dataDir, rel), jpeg);
  return rel;
}

describe("the evidence still", () => {
  test("names the backend the reporter's nudity check ran on, next to a roulette still", async () => {
    const id = (await fileReport(t, reporter.id, reported.id, { context: "roulette", reason: "sexual_content", evidencePath: stillFile("d".repeat(32)), stillBackend: "wasm-simd" })).id;
    const shown = await page(t, mod, `/mod/reports/${id}`);
    expect(shown.text).toContain("On-device nudity check: WebAssembly with SIMD (wasm-simd).");
  });

  test("is served to moderators only, never cached and never sniffed", async () => {
    const id = (await fileReport(t, reporter.id, reported.id, { context: "roulette", reason: "sexual_content", evidencePath: stillFile("a".repeat(32)) })).id;
    const shown = await page(t, mod, `/mod/reports/${id}`);
    expect(shown.text).toContain(`<img src="/mod/reports/${id}/still"`);
    // No check ran for this still (no backend recorded), and the console says so beside it.
    expect(shown.text).toContain("On-device nudity check: none ran.");
    const still = await t.app.handle(new Request(`http://localhost/mod/reports/${id}/still`, { headers: { cookie: mod.cookie } }));
    expect(still.status).toBe(200);
    expect(still.headers.get("content-type")).toBe("image/jpeg");
    expect(still.headers.get("cache-control")).toBe("private, no-store");
    expect(still.headers.get("x-content-type-options")).toBe("nosniff");
    expect(new Uint8Array(await still.arrayBuffer())).toEqual(jpeg);
    for (const who of [null, reporter, reported]) {
      const r = await page(t, who, `/mod/reports/${id}/still`);
      expect(r.status).toBe(404);
      expect(r.headers.get("content-type")).toContain("text/html");
    }
  });

  test("answers 404 once purged, when the file is gone, or for a path the reports module never writes", async () => {
    const purged = (await fileReport(t, reporter.id, reported.id, { evidencePath: stillFile("b".repeat(32)), purgedAt: Date.now() })).id;
    const missing = (await fileReport(t, reporter.id, reported.id, { evidencePath: `evidence/${"c".repeat(32)}.jpg` })).id;
    const foreign = (await fileReport(t, reporter.id, reported.id, { evidencePath: "secret.key" })).id;
    for (const id of [purged, missing, foreign, 999_999]) expect((await page(t, mod, `/mod/reports/${id}/still`)).status).toBe(404);
    expect((await page(t, mod, `/mod/reports/${purged}`)).text).toContain("deleted by the retention rules");
  });
});

describe("a report's page", () => {
  test("shows both people with account age, guest or not, and earlier reports and bans", async () => {
    const earlier = (await fileReport(t, mod.id, reported.id, { reason: "spam" })).id;
    const id = (await fileReport(t, reporter.id, reported.id, { reason: "harassment", details: "Kept insulting me <b>loudly</b>" })).id;
    const r = await page(t, mod, `/mod/reports/${id}`);
    expect(r.text).toContain("Kept insulting me &lt;b&gt;loudly&lt;/b&gt;");
    expect(r.text).toContain(`<a href="/mod/users/${reporter.id}">${reporter.username}</a>`);
    expect(r.text).toMatch(/Guest, \d s old/);
    expect(r.text).toContain("Registered, ");
    expect(r.text).toContain("<dt>Reports</dt><dd>0 received, ");
    expect(r.text).toMatch(/<dt>Reports<\/dt><dd>\d+ received, 0 made/);
    // The other open reports about the same person are listed, ticked, in the action form.
    expect(r.text).toContain(`name="report" checked="" value="${earlier}"`);
    expect(r.text).toContain(`name="report" checked="" value="${id}"`);
  });

  test("shows the message snapshot with the reported message marked", async () => {
    const at = new Date().toISOString();
    const transcript = [
      { id: 41, sender_id: reporter.id, receiver_id: reported.id, content: "hello", message_type: "text", file_name: null, file_path: null, created_at: at },
      { id: 42, sender_id: reported.id, receiver_id: reporter.id, content: "something vile", message_type: "text", file_name: null, file_path: null, created_at: at },
    ];
    const id = (await fileReport(t, reporter.id, reported.id, { context: "message", messageId: 42, transcript: JSON.stringify(transcript) })).id;
    const r = await page(t, mod, `/mod/reports/${id}`);
    expect(r.text).toContain("Message snapshot");
    expect(r.text).toContain("hello");
    expect(r.text).toMatch(/class="mod-reported-line">.*something vile.*reported<\/strong>/);
  });

  test("shows the roulette text chat, and survives a snapshot that is not what it expects", async () => {
    const lines = [{ sender_id: reported.id, text: "show me", at: new Date().toISOString() }, { nonsense: true }, 5];
    const id = (await fileReport(t, reporter.id, reported.id, { context: "roulette", transcript: JSON.stringify(lines) })).id;
    const r = await page(t, mod, `/mod/reports/${id}`);
    expect(r.text).toContain("Roulette text chat");
    expect(r.text).toContain("show me");
    const broken = (await fileReport(t, reporter.id, reported.id, { context: "chat", transcript: "{not json" })).id;
    expect((await page(t, mod, `/mod/reports/${broken}`)).status).toBe(200);
  });

  test("shows which copied messages had been edited or deleted by their sender when the report was made", async () => {
    const at = "2026-11-26T10:00:00.000Z";
    const line = (id: number, content: string, extra: Record<string, unknown>) => ({
      id, sender_id: reported.id, receiver_id: reporter.id, content, message_type: "text", file_name: null, file_path: null, created_at: at, ...extra,
    });
    const lines = [line(1, "changed words", { edited_at: "2026-11-26T10:05:00.000Z", deleted_at: null }), line(2, "", { edited_at: null, deleted_at: "2026-11-26T10:06:00.000Z" })];
    const id = (await fileReport(t, reporter.id, reported.id, { context: "chat", transcript: JSON.stringify(lines) })).id;
    const r = await page(t, mod, `/mod/reports/${id}`);
    expect(r.text).toContain("changed words");
    expect(r.text).toContain("(edited at 2026-11-26 10:05:00)");
    expect(r.text).toContain("[deleted by the sender at 2026-11-26 10:06:00]");
  });
});

describe("deleting a report", () => {
  test("is offered to admins only, and a moderator's post answers 403", async () => {
    const id = (await fileReport(t, reporter.id, reported.id, { status: "dismissed", closedAt: Date.now() })).id;
    expect((await page(t, mod, `/mod/reports/${id}`)).text).not.toContain(`/mod/reports/${id}/delete`);
    const refused = await post(t, mod, `/mod/reports/${id}/delete`, { csrf: await csrfOf(t, mod), confirm: "on", back: `/mod/reports/${id}` });
    expect(refused.status).toBe(403);
    expect(await reportRow(t, id)).toBeDefined();
    expect((await page(t, admin, `/mod/reports/${id}`)).text).toContain(`action="/mod/reports/${id}/delete"`);
    const unconfirmed = await post(t, admin, `/mod/reports/${id}/delete`, { csrf: await csrfOf(t, admin), back: `/mod/reports/${id}` });
    expect(unconfirmed.status).toBe(400);
    expect(await reportRow(t, id)).toBeDefined();
    const deleted = await post(t, admin, `/mod/reports/${id}/delete`, { csrf: await csrfOf(t, admin), confirm: "on", back: "/mod/reports" });
    expect(deleted.status).toBe(303);
    expect(await reportRow(t, id)).toBeUndefined();
  });
});
