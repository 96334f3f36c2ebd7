// The action forms of a report's page, posted as a browser sends them: each takes effect, closes
// the ticked reports (and only those) and writes its audit row.
import { transaction } from "../../src/storage/index.ts";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { bans, messages, users, warnings } from "../../src/storage/tables.ts";
import { makeTestApp } from "../support/app.ts";
import { auditOf, csrfOf, page, person, post, fileReport, reportRow, userRow, type Person } from "../support/moderation.ts";

const t = makeTestApp({ SIGNUP_RATE_LIMIT: "1000" });
afterAll(() => t.close());

let mod: Person;
let csrf: string;
let reporters: Person[];
beforeAll(async () => {
  mod = await person(t, "moderator");
  csrf = await csrfOf(t, mod);
  reporters = [await person(t), await person(t)];
});

/** The fields of the report page's form as the browser would send them with one button. */
async function formOf(reportId: number): Promise<[string, string][]> {
  const html = (await page(t, mod, `/mod/reports/${reportId}`)).text;
  const ticked = [...html.matchAll(/name="report" checked="" value="(\d+)"/g)].map((m): [string, string] => ["report", m[1]!]);
  return [["csrf", csrf], ["back", `/mod/reports/${reportId}`], ...ticked];
}

describe("actions from a report's page", () => {
  test("a ban for 7 days with the address closes every ticked report and writes the audit row", async () => {
    const target = await person(t);
    const first = (await fileReport(t, reporters[0]!.id, target.id, { reason: "harassment" })).id;
    const second = (await fileReport(t, reporters[1]!.id, target.id, { reason: "spam" })).id;
    const fields = [...(await formOf(first)), ["ban_days", "7"], ["ban_reason", "Harassing people"], ["ban_address", "on"]] as [string, string][];
    const r = await post(t, mod, `/mod/users/${target.id}/ban`, fields);
    expect(r.status).toBe(303);
    expect(r.headers.get("location")).toBe(`/mod/reports/${first}`);
    const ban = (await t.ctx.db.select().from(bans).where(eq(bans.userId, target.id)).limit(1))[0];
    expect(ban?.reason).toBe("Harassing people");
    expect(ban?.createdBy).toBe(mod.id);
    expect((ban?.until ?? 0) - Date.now()).toBeGreaterThan(7 * 86_400_000 - 60_000);
    expect((await userRow(t, target.id))?.banned).toBe(true);
    expect([(await reportRow(t, first))?.status, (await reportRow(t, second))?.status]).toEqual(["actioned", "actioned"]);
    const [audit] = await auditOf(t, target.id);
    expect(audit?.action).toBe("ban");
    expect(audit?.actorId).toBe(mod.id);
    expect(JSON.parse(audit?.reportIds ?? "[]").sort()).toEqual([first, second].sort());
    // A test request has no client address, so the ban records that it could not cover one.
    expect(JSON.parse(audit?.detail ?? "{}")).toMatchObject({ days: 7, address_banned: false, address_unknown: true });
    // The banned person's session is gone: their token no longer works.
    expect((await t.call("GET", "/api/auth/me", { token: target.token })).status).toBe(401);
    const shown = await page(t, mod, `/mod/reports/${first}`);
    expect(shown.text).toContain("banned until");
  });

  test("a permanent ban has no end", async () => {
    const target = await person(t);
    const id = (await fileReport(t, reporters[0]!.id, target.id)).id;
    const r = await post(t, mod, `/mod/users/${target.id}/ban`, [...(await formOf(id)), ["ban_days", "permanent"], ["ban_reason", "Selling drugs"]]);
    expect(r.status).toBe(303);
    expect((await t.ctx.db.select().from(bans).where(eq(bans.userId, target.id)).limit(1))[0]?.until).toBeNull();
  });

  test("a warning closes only the reports left ticked", async () => {
    const target = await person(t);
    const kept = (await fileReport(t, reporters[0]!.id, target.id)).id;
    const closed = (await fileReport(t, reporters[1]!.id, target.id)).id;
    const r = await post(t, mod, `/mod/users/${target.id}/warn`, [["csrf", csrf], ["report", String(closed)], ["warn_reason", "Please be polite"]]);
    expect(r.status).toBe(303);
    expect(r.headers.get("location")).toBe(`/mod/users/${target.id}`);
    expect((await t.ctx.db.select().from(warnings).where(eq(warnings.userId, target.id))).map((w) => w.reason)).toEqual(["Please be polite"]);
    expect([(await reportRow(t, kept))?.status, (await reportRow(t, closed))?.status]).toEqual(["open", "actioned"]);
    expect((await auditOf(t, target.id)).map((a) => [a.action, a.reason, a.reportIds])).toEqual([["warn", "Please be polite", `[${closed}]`]]);
  });

  test("dismiss closes the ticked reports as dismissed", async () => {
    const target = await person(t);
    const id = (await fileReport(t, reporters[0]!.id, target.id)).id;
    const r = await post(t, mod, "/mod/reports/dismiss", [...(await formOf(id)), ["dismiss_reason", "Nothing wrong here"]]);
    expect(r.status).toBe(303);
    expect((await reportRow(t, id))?.status).toBe("dismissed");
    expect((await reportRow(t, id))?.closedBy).toBe(mod.id);
    expect((await auditOf(t, target.id)).map((a) => a.action)).toEqual(["dismiss"]);
  });

  test("remove content takes the reported message away, and the button is gone afterwards", async () => {
    const target = await person(t);
    const victim = reporters[0]!;
    const [lo, hi] = target.id < victim.id ? [target.id, victim.id] : [victim.id, target.id];
    const message = (await transaction(t.ctx.db, (tx) => tx
      .insert(messages)
      .values({ senderId: target.id, receiverId: victim.id, pairLo: lo, pairHi: hi, content: "vile", messageType: "text", createdAt: Date.now() })
      .returning()))[0]!;
    const id = (await fileReport(t, victim.id, target.id, { context: "message", messageId: message.id })).id;
    const form = await page(t, mod, `/mod/reports/${id}`);
    expect(form.text).toContain(`formAction="/mod/messages/${message.id}/remove"`);
    const r = await post(t, mod, `/mod/messages/${message.id}/remove`, [...(await formOf(id)), ["remove_reason", "Abusive message"]]);
    expect(r.status).toBe(303);
    const row = (await t.ctx.db.select().from(messages).where(eq(messages.id, message.id)).limit(1))[0];
    expect(row?.removedAt).not.toBeNull();
    expect(row?.content).toBe("");
    expect((await reportRow(t, id))?.status).toBe("actioned");
    expect((await auditOf(t, target.id)).map((a) => a.action)).toEqual(["remove_message"]);
    expect((await page(t, mod, `/mod/reports/${id}`)).text).not.toContain(`/mod/messages/${message.id}/remove`);
  });

  test("a chat report's snapshot offers to remove the reported person's own messages only", async () => {
    const target = await person(t);
    const victim = reporters[1]!;
    const [lo, hi] = target.id < victim.id ? [target.id, victim.id] : [victim.id, target.id];
    const send = async (from: Person, to: Person, content: string) =>
      (await transaction(t.ctx.db, (tx) => tx.insert(messages).values({ senderId: from.id, receiverId: to.id, pairLo: lo, pairHi: hi, content, messageType: "text", createdAt: Date.now() }).returning()))[0]!;
    const theirs = await send(target, victim, "nasty");
    const mine = await send(victim, target, "stop it");
    const line = (m: typeof theirs) => ({ id: m.id, sender_id: m.senderId, receiver_id: m.receiverId, content: m.content, message_type: "text", created_at: new Date().toISOString() });
    const id = (await fileReport(t, victim.id, target.id, { context: "chat", transcript: JSON.stringify([line(theirs), line(mine)]) })).id;
    const html = (await page(t, mod, `/mod/reports/${id}`)).text;
    expect(html).toMatch(new RegExp(`<button type="submit" form="mod-actions"[^>]*formAction="/mod/messages/${theirs.id}/remove"`));
    // Enter in a field of the actions form must not press that Remove: a disabled button comes first.
    const firstButton = /<button type="submit" form="mod-actions"[^>]*>/.exec(html)?.[0] ?? "";
    expect(firstButton).toContain('disabled=""');
    expect(html).not.toContain(`/mod/messages/${mine.id}/remove`);
    const r = await post(t, mod, `/mod/messages/${theirs.id}/remove`, [...(await formOf(id)), ["remove_reason", "Abuse"]]);
    expect(r.status).toBe(303);
    expect((await t.ctx.db.select().from(messages).where(eq(messages.id, theirs.id)).limit(1))[0]?.removedAt).not.toBeNull();
    expect((await reportRow(t, id))?.status).toBe("actioned");
  });

  test("remove content takes an avatar away", async () => {
    const target = await person(t);
    await transaction(t.ctx.db, (tx) => tx.update(users).set({ avatarPath: "avatars/0123456789abcdef0123456789abcdef.png" }).where(eq(users.id, target.id)));
    const id = (await fileReport(t, reporters[0]!.id, target.id, { context: "profile" })).id;
    const r = await post(t, mod, `/mod/users/${target.id}/remove-avatar`, [...(await formOf(id)), ["remove_reason", "Explicit avatar"]]);
    expect(r.status).toBe(303);
    expect((await userRow(t, target.id))?.avatarPath).toBeNull();
    expect((await auditOf(t, target.id)).map((a) => a.action)).toEqual(["remove_avatar"]);
  });

  test("a roulette suspension runs for the hours given, or until lifted when left empty", async () => {
    const timed = await person(t);
    const id = (await fileReport(t, reporters[0]!.id, timed.id, { context: "roulette" })).id;
    const r = await post(t, mod, `/mod/users/${timed.id}/suspend`, [...(await formOf(id)), ["suspend_hours", "24"], ["suspend_reason", "Nudity on camera"]]);
    expect(r.status).toBe(303);
    const row = await userRow(t, timed.id);
    expect(row?.rouletteSuspensionReason).toBe("Nudity on camera");
    expect((row?.rouletteSuspendedUntil ?? 0) - Date.now()).toBeGreaterThan(23 * 3_600_000);
    const open = await person(t);
    await post(t, mod, `/mod/users/${open.id}/suspend`, [["csrf", csrf], ["suspend_hours", ""], ["suspend_reason", "Until we talk"]]);
    expect((await userRow(t, open.id))?.rouletteSuspendedAt).not.toBeNull();
    expect((await userRow(t, open.id))?.rouletteSuspendedUntil).toBeNull();
    const bad = await post(t, mod, `/mod/users/${open.id}/suspend`, [["csrf", csrf], ["suspend_hours", "1.5"], ["suspend_reason", "x"], ["back", `/mod/users/${open.id}`]]);
    expect(bad.status).toBe(400);
    expect(bad.text).toContain("whole number");
  });

  test("an action without a reason is refused on the page and changes nothing", async () => {
    const target = await person(t);
    const id = (await fileReport(t, reporters[0]!.id, target.id)).id;
    const r = await post(t, mod, `/mod/users/${target.id}/warn`, [...(await formOf(id)), ["warn_reason", "   "]]);
    expect(r.status).toBe(400);
    expect(r.text).toContain("Give a reason");
    expect(r.text).toContain(`Report #${id}`);
    expect((await reportRow(t, id))?.status).toBe("open");
    expect(await auditOf(t, target.id)).toEqual([]);
  });

  test("a refused ban comes back with its reason, the address box and the ticked reports as sent", async () => {
    const target = await person(t);
    const first = (await fileReport(t, reporters[0]!.id, target.id)).id;
    const second = (await fileReport(t, reporters[1]!.id, target.id)).id;
    // No length chosen; only the first report left ticked.
    const fields: [string, string][] = [["csrf", csrf], ["back", `/mod/reports/${first}`], ["report", String(first)], ["ban_reason", "Threats in chat & on video"], ["ban_address", "on"]];
    const r = await post(t, mod, `/mod/users/${target.id}/ban`, fields);
    expect(r.status).toBe(400);
    expect(r.text).toContain("Choose how long the ban lasts");
    expect(r.text).toContain("Threats in chat &amp; on video</textarea>");
    expect(r.text).toMatch(/name="ban_address" value="on" checked=""|name="ban_address" checked="" value="on"/);
    expect(r.text).toContain(`name="report" checked="" value="${first}"`);
    expect(r.text).not.toContain(`name="report" checked="" value="${second}"`);
    expect((await userRow(t, target.id))?.banned).toBe(false);
  });

  test("a moderator cannot act on another moderator", async () => {
    const other = await person(t, "moderator");
    const r = await post(t, mod, `/mod/users/${other.id}/ban`, [["csrf", csrf], ["ban_days", "1"], ["ban_reason", "x"], ["back", `/mod/users/${other.id}`]]);
    expect(r.status).toBe(403);
    expect((await userRow(t, other.id))?.banned).toBe(false);
  });

  test("an action on an unknown user or message is a 404 page", async () => {
    const r = await post(t, mod, "/mod/users/99999999/warn", [["csrf", csrf], ["warn_reason", "x"]]);
    expect(r.status).toBe(404);
    const m = await post(t, mod, "/mod/messages/99999999/remove", [["csrf", csrf], ["remove_reason", "x"]]);
    expect(m.status).toBe(404);
  });
});
