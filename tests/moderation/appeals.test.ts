// Appeals: a signed link, one appeal per ban while it runs, and a moderator's decision the user
// reads; lifting lets them sign in again.
import { transaction } from "../../src/storage/index.ts";
import { afterAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { appeals, bans } from "../../src/storage/tables.ts";
import { appealFor, appealUrl, banIdOfAppealToken, banUser, decideAppeal, fileAppeal } from "../../src/moderation/actions.ts";
import { loginAs, makeTestApp, registerUser } from "../support/app.ts";
import { auditOf, staff } from "../support/moderation.ts";

const t = makeTestApp();
afterAll(() => t.close());
const tokenOf = (banId: number) => appealUrl(t.ctx.config.secret, banId).slice("/appeal/".length);

describe("the appeal link", () => {
  test("names its ban only with the server's signature", () => {
    const token = tokenOf(42);
    expect(banIdOfAppealToken(t.ctx.config.secret, token)).toBe(42);
    expect(banIdOfAppealToken(t.ctx.config.secret, token.replace(/^42\./, "43."))).toBeNull();
    expect(banIdOfAppealToken("another secret", token)).toBeNull();
    expect(banIdOfAppealToken(t.ctx.config.secret, "42")).toBeNull();
  });
});

describe("appeals", () => {
  test("one per ban: a second answers 409 appeal_exists", async () => {
    const mod = await staff(t, "moderator");
    const target = await registerUser(t);
    const ban = await banUser(t.ctx, mod.actor, target.user.id, { days: 30, reason: "Spam", banAddress: false });
    const appeal = await fileAppeal(t.ctx, tokenOf(ban.id), "  It was my brother  ");
    expect(appeal).toMatchObject({ banId: ban.id, userId: target.user.id, text: "It was my brother", status: "open" });
    expect((await appealFor(t.ctx.db, ban.id))?.id).toBe(appeal.id);
    await expect(fileAppeal(t.ctx, tokenOf(ban.id), "Again")).rejects.toThrow(expect.objectContaining({ status: 409, code: "appeal_exists" }));
  });

  test("the text is 1 to 1000 characters, the link must be valid, and the ban must still run", async () => {
    const mod = await staff(t, "moderator");
    const target = await registerUser(t);
    const ban = await banUser(t.ctx, mod.actor, target.user.id, { days: 1, reason: "Spam", banAddress: false });
    await expect(fileAppeal(t.ctx, tokenOf(ban.id), "")).rejects.toThrow(expect.objectContaining({ status: 400 }));
    await expect(fileAppeal(t.ctx, tokenOf(ban.id), "x".repeat(1001))).rejects.toThrow(expect.objectContaining({ status: 400 }));
    await expect(fileAppeal(t.ctx, "1.forged", "Please")).rejects.toThrow(expect.objectContaining({ status: 404 }));
    await transaction(t.ctx.db, (tx) => tx.update(bans).set({ until: Date.now() - 1 }).where(eq(bans.id, ban.id)));
    await expect(fileAppeal(t.ctx, tokenOf(ban.id), "Please")).rejects.toThrow(expect.objectContaining({ status: 409, code: "ban_ended" }));
  });

  test("lifting on appeal ends the ban with the moderator's answer, and the user signs in again", async () => {
    const mod = await staff(t, "moderator");
    const target = await registerUser(t);
    const ban = await banUser(t.ctx, mod.actor, target.user.id, { days: null, reason: "Spam", banAddress: false });
    expect((await loginAs(t, target.user.username)).status).toBe(403);
    const appeal = await fileAppeal(t.ctx, tokenOf(ban.id), "Those links were to my own shop, I will stop");
    await decideAppeal(t.ctx, mod.actor, appeal.id, { lift: true, response: "Lifted; please do not post links to strangers" });
    expect((await t.ctx.db.select().from(appeals).where(eq(appeals.id, appeal.id)).limit(1))[0]).toMatchObject({
      status: "lifted",
      response: "Lifted; please do not post links to strangers",
      decidedBy: mod.user.id,
    });
    expect((await loginAs(t, target.user.username)).status).toBe(200);
    expect((await auditOf(t, target.user.id)).at(-1)).toMatchObject({ action: "lift_appeal", reason: "Lifted; please do not post links to strangers" });
    await expect(decideAppeal(t.ctx, mod.actor, appeal.id, { lift: false, response: "Changed my mind" })).rejects.toThrow(expect.objectContaining({ status: 409 }));
  });

  test("upholding keeps the ban and records the answer", async () => {
    const mod = await staff(t, "moderator");
    const target = await registerUser(t);
    const ban = await banUser(t.ctx, mod.actor, target.user.id, { days: 7, reason: "Threats", banAddress: false });
    const appeal = await fileAppeal(t.ctx, tokenOf(ban.id), "I was joking");
    await decideAppeal(t.ctx, mod.actor, appeal.id, { lift: false, response: "Threats are never a joke here" });
    expect(await appealFor(t.ctx.db, ban.id)).toMatchObject({ status: "upheld", response: "Threats are never a joke here" });
    expect((await loginAs(t, target.user.username)).status).toBe(403);
    expect((await auditOf(t, target.user.id)).at(-1)).toMatchObject({ action: "uphold_appeal" });
  });
});
