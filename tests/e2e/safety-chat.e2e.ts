// Safety on the chat screen in real Chromium against the real server: a stranger's photo comes
// blurred until tapped; Alice blocks Bob from the chat header and Bob's next message is refused;
// Alice reports Bob from the same menu (stored with the conversation); Settings → Blocked people
// lists him and Unblock brings the conversation back. Screenshots go to tests/e2e/screenshots/.
import { describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import sharp from "sharp";
import { apiAs, registerAccount } from "./support/accounts.ts";
import { openConversation as openChat, pageSettled, startChat } from "./support/screens.ts";
import { screenshot } from "./support/screenshots.ts";
import { readServerDb } from "./support/data.ts";
import { browserSuite } from "./support/suite.ts";

const suite = browserSuite({ open: { listLoaded: true }, isolated: true });

/** One test's Alice, Bob and Carol: names numbered so that lists holding everybody still tell them apart. */
interface Trio {
  alice: string;
  bob: string;
  carol: string;
  names: { alice: string; bob: string; carol: string };
  tokens: Map<string, string>;
  ids: Map<string, number>;
}

let made = 0;

async function trio(): Promise<Trio> {
  const n = ++made;
  const names = { alice: `Alice ${n}`, bob: `Bob ${n}`, carol: `Carol ${n}` };
  const t: Trio = { alice: `alice${n}`, bob: `bob${n}`, carol: `carol${n}`, names, tokens: new Map(), ids: new Map() };
  for (const [who, gender] of [["alice", "female"], ["bob", "male"], ["carol", "female"]] as const) {
    const { token, user } = await registerAccount(suite.server, t[who], names[who], { gender });
    t.tokens.set(who, token);
    t.ids.set(who, user.id);
  }
  return t;
}

/** Calls the API as one of the test's people. */
const api = (t: Trio, who: string, path: string, init: RequestInit = {}) => apiAs(suite.server, t.tokens.get(who)!, path, init);

/** Carol sends Alice a photo through the API. */
async function photoFromCarol(t: Trio): Promise<void> {
  const picture = await sharp({ create: { width: 640, height: 480, channels: 3, background: "#f97316" } }).png().toBuffer();
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(picture)], { type: "image/png" }), "holiday.png");
  form.append("receiverId", String(t.ids.get("alice")));
  const upload = await api(t, "carol", "/api/messages/upload", { method: "POST", body: form });
  expect(upload.status).toBe(201);
}

/** Bob signs in and writes to Alice from her profile. */
async function bobWrites(t: Trio): Promise<Page> {
  const bob = await suite.open(t.bob);
  await startChat(bob, t.names.alice);
  const box = bob.getByRole("textbox", { name: `Message ${t.names.alice}` });
  await box.fill("Hi Alice, nice photo?");
  await box.press("Enter");
  await bob.locator(".message-row.is-own").first().waitFor();
  return bob;
}

/** Alice, signed in, blocks Bob from their chat's header; ends when the window says so. */
async function aliceBlocksBob(t: Trio, shots = false): Promise<Page> {
  const alice = await suite.open(t.alice);
  await openChat(alice, t.names.bob);
  await alice.locator(".message-text", { hasText: "Hi Alice, nice photo?" }).waitFor();
  await alice.getByRole("button", { name: `More options for ${t.names.bob}` }).click();
  await alice.getByRole("menu").waitFor();
  if (shots) await screenshot(alice, "safety-block-menu");
  await alice.getByRole("menuitem", { name: "Block" }).click();
  const confirm = alice.getByRole("alertdialog", { name: `Block ${t.names.bob}?` });
  await confirm.getByText("They won't be able to message or call you, and you won't see each other.").waitFor();
  await confirm.getByRole("button", { name: "Block" }).click();
  await confirm.waitFor({ state: "detached" });
  await alice.getByText(`You blocked ${t.names.bob}. Unblock to send messages.`).waitFor();
  return alice;
}

describe("safety on the chat screen", () => {
  test("a photo from a stranger shows blurred with 'Tap to view' until Alice taps it", async () => {
    const t = await trio();
    await photoFromCarol(t);

    const alice = await suite.open(t.alice);
    await openChat(alice, t.names.carol);
    const grid = alice.locator(".image-grid");
    await grid.waitFor();
    expect(await grid.getAttribute("class")).toContain("is-blurred");
    const cover = alice.getByRole("button", { name: `Photo from ${t.names.carol}, hidden. Tap to view` });
    expect(await cover.textContent()).toContain("Tap to view");
    const filter = await grid.locator("img").evaluate((img) => getComputedStyle(img).filter);
    expect(filter).toContain("blur");
    await alice.waitForFunction(() => document.querySelector<HTMLImageElement>(".image-grid img")?.complete === true);
    await screenshot(alice, "safety-blurred-photo");

    await cover.click();
    await cover.waitFor({ state: "detached" });
    expect(await grid.getAttribute("class")).not.toContain("is-blurred");
    await grid.locator(".image-tile").click();
    await alice.locator(".lightbox").waitFor();
    await alice.keyboard.press("Escape");
  });

  test("Alice blocks Bob from the chat header: the conversation leaves her list and the window says so", async () => {
    const t = await trio();
    await bobWrites(t);
    const alice = await aliceBlocksBob(t, true);
    await alice.locator(".sidebar-panel .row", { hasText: t.names.bob }).waitFor({ state: "detached" });
    expect(await alice.getByRole("textbox", { name: `Message ${t.names.bob}` }).count()).toBe(0);
  });

  test("Bob's next message is refused with the server's words and never reaches Alice", async () => {
    const t = await trio();
    // Alice has a conversation with Carol in her list, for the marker below.
    await photoFromCarol(t);
    const bob = await bobWrites(t);
    const alice = await aliceBlocksBob(t);
    const box = bob.getByRole("textbox", { name: `Message ${t.names.alice}` });
    await box.fill("Why did you block me?");
    await box.press("Enter");
    const notice = bob.locator('.conversation-notice[role="alert"]');
    await notice.waitFor();
    expect((await notice.textContent())?.length).toBeGreaterThan(0);
    expect(await bob.getByRole("button", { name: "Unblock" }).count()).toBe(0);
    // A photo from Carol, sent after the refusal, reaches Alice on the same socket after anything
    // Bob's message could have made the server send her: once it is there, so would his be.
    const carolRow = alice.locator(".sidebar-panel .row", { hasText: t.names.carol });
    const badge = carolRow.locator(".badge");
    const unreadBefore = (await badge.count()) > 0 ? Number(await badge.textContent()) : 0;
    await carolRow.waitFor();
    await photoFromCarol(t);
    await alice.waitForFunction(
      ([n, carol]) => Number([...document.querySelectorAll(".sidebar-panel .row")].find((r) => r.textContent?.includes(carol))?.querySelector(".badge")?.textContent ?? 0) > n,
      [unreadBefore, t.names.carol] as const,
    );
    await pageSettled(alice);
    expect(await alice.locator(".message-text", { hasText: "Why did you block me?" }).count()).toBe(0);
    const stored = readServerDb(suite.server, (db) => db.query("SELECT count(*) AS n FROM messages WHERE content = ?").get("Why did you block me?") as { n: number });
    expect(stored.n).toBe(0);
  });

  test("Alice reports Bob from the chat header; the report is stored with the conversation", async () => {
    const t = await trio();
    await bobWrites(t);
    const alice = await aliceBlocksBob(t);
    await alice.getByRole("button", { name: `More options for ${t.names.bob}` }).click();
    await alice.getByRole("menuitem", { name: "Report" }).click();
    const dialog = alice.getByRole("dialog", { name: `Report ${t.names.bob}` });
    await dialog.waitFor();
    await dialog.getByLabel("Harassment or hate").check();
    await dialog.getByLabel("Details (optional)").fill("Keeps writing after I said no.");
    await screenshot(alice, "safety-report-dialog");
    await dialog.getByRole("button", { name: "Send report" }).click();
    await alice.getByText("Thanks. Our moderators will review your report.").waitFor();
    // Bob is already blocked: no offer to block him again, the dialog simply closes.
    await dialog.waitFor({ state: "detached" });

    const report = readServerDb(suite.server, 
      (db) =>
        db.query("SELECT context, reason, details, transcript, status FROM reports WHERE reporter_id = ?").get(t.ids.get("alice")!) as {
          context: string;
          reason: string;
          details: string;
          transcript: string;
          status: string;
        } | null,
    );
    expect(report?.context).toBe("chat");
    expect(report?.reason).toBe("harassment");
    expect(report?.details).toBe("Keeps writing after I said no.");
    expect(report?.status).toBe("open");
    expect(report?.transcript).toContain("Hi Alice, nice photo?");
  });

  test("Settings lists Bob under Blocked people, and Unblock brings the conversation back", async () => {
    const t = await trio();
    const bob = await bobWrites(t);
    const alice = await aliceBlocksBob(t);
    await alice.locator('[data-tab="settings"]').click();
    await alice.getByRole("button", { name: /Blocked people/ }).click();
    const row = alice.locator(".blocked-row", { hasText: t.names.bob });
    await row.waitFor();
    expect(await row.textContent()).toContain("Blocked ");
    await screenshot(alice, "safety-blocked-list");
    await row.getByRole("button", { name: `Unblock ${t.names.bob}` }).click();
    await alice.getByText("You haven't blocked anyone.").waitFor();
    await alice.locator('[data-tab="chats"]').click();
    await alice.locator(".sidebar-panel .row", { hasText: t.names.bob }).waitFor();

    const box = bob.getByRole("textbox", { name: `Message ${t.names.alice}` });
    await box.fill("Sorry, friends again?");
    await box.press("Enter");
    await alice.locator(".sidebar-panel .row", { hasText: "Sorry, friends again?" }).waitFor();
  });
});
