// Safety settings and the remaining safety entry points in real Chromium against the real server:
// Settings → Privacy "People I have written to" refuses a stranger's message with the server's
// words until Alice writes to him; Report on a single message's menu stores the message id; Block,
// Unblock and Report from a profile; the 18+ modal for an account made before the 18+ rule (Cancel
// records nothing, Confirm records it and the Video Chat starts); and the phone layout (375 px) of
// the chat header's menu, the report dialog and Blocked people. Every test makes its own people.
// Screenshots go to tests/e2e/screenshots/.
import { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { MOBILE } from "./support/browser.ts";
import { person, signIn, type Person } from "./support/people.ts";
import { animationsDone, openConversation as openChat, openSettings, openVideoTab, pageSettled, sendMessage, startChat } from "./support/screens.ts";
import { screenshot } from "./support/screenshots.ts";
import { readServerDb } from "./support/data.ts";
import { browserSuite } from "./support/suite.ts";
import { apiAs } from "./support/accounts.ts";

/** Generous: the machine is shared and loaded. */
const TIMEOUT = 60_000;
const WAIT = { timeout: TIMEOUT };
/** One or two browsers through several screens: minutes on a loaded 2-core machine. */
const SCREENS = 180_000;
const REFUSAL = "This person only accepts messages from people they have written to";
const THANKS = "Thanks. Our moderators will review your report.";
const LONG_NAME = "Maximiliane Alexandra von Hohenzollern-Sigmaringen";

const suite = browserSuite({
  open: { logConsoleErrors: true, listLoaded: true, timeout: TIMEOUT, defaultTimeout: TIMEOUT },
  isolated: true,
});

/** One of this test's people, with a session of their own for the API. */
interface Someone extends Person {
  id: number;
  token: string;
}

async function someone(base: string, name: string, gender: "female" | "male"): Promise<Someone> {
  const made = await person(suite, base, name, { gender });
  const { token, user } = await signIn(suite.server, made.username);
  return { ...made, id: user.id, token };
}

/** Calls the API as one of the test's people. */
const api = (who: Someone, path: string, init: RequestInit = {}) => apiAs(suite.server, who.token, path, init);

/** Alice's privacy choice, set through the API (the screen's own radio is tested on its own). */
async function allowOnlyContacts(who: Someone): Promise<void> {
  const response = await api(who, "/api/users/privacy", { method: "PUT", body: JSON.stringify({ allowFrom: "contacts" }) });
  expect(response.status).toBe(200);
}

const countMessages = (content: string) =>
  readServerDb(suite.server, (db) => (db.query("SELECT count(*) AS n FROM messages WHERE content = ?").get(content) as { n: number }).n);
const allowFrom = (who: Someone) =>
  readServerDb(suite.server, (db) => (db.query("SELECT allow_from FROM users WHERE id = ?").get(who.id) as { allow_from: string }).allow_from);
const adultConfirmedAt = (who: Someone) =>
  readServerDb(suite.server, (db) => (db.query("SELECT adult_confirmed_at FROM users WHERE id = ?").get(who.id) as { adult_confirmed_at: number | null }).adult_confirmed_at);
const isBlocked = (blocker: { id: number }, blocked: { id: number }) =>
  readServerDb(suite.server, (db) => db.query("SELECT 1 FROM blocks WHERE blocker_id = ? AND blocked_id = ?").get(blocker.id, blocked.id) !== null);

interface ReportRow {
  id: number;
  reporter_id: number;
  reported_id: number;
  context: string;
  reason: string;
  details: string;
  message_id: number | null;
  transcript: string | null;
  status: string;
}
const reportsOf = (reporter: Someone, reported: Someone) =>
  readServerDb(suite.server, (db) => db.query("SELECT * FROM reports WHERE reporter_id = ? AND reported_id = ? ORDER BY id").all(reporter.id, reported.id) as ReportRow[]);

const THREAT = "Send me your number or else";

/** Bob writes two messages to Alice from his own browser, the threat last; answers them both. */
async function bobWritesToAlice(): Promise<{ alice: Someone; bob: Someone }> {
  const alice = await someone("alice", "Alice", "female");
  const bob = await someone("bob", "Bob", "male");
  const page = await suite.open(bob.username);
  await startChat(page, alice.name);
  await sendMessage(page, alice.name, "Nice to meet you");
  await sendMessage(page, alice.name, THREAT);
  await page.locator(".message-row.is-own .message-text", { hasText: THREAT }).waitFor();
  return { alice, bob };
}

/** From All Users: `name`'s profile, once its heading is shown. */
async function openProfile(page: Page, name: string) {
  await page.locator('[data-tab="users"]').click();
  await page.locator(".sidebar-panel").getByRole("button", { name: new RegExp(name) }).click();
  const profile = page.locator("section.profile-view");
  await profile.getByRole("heading", { name }).waitFor();
  return profile;
}

/** The element lies wholly inside the viewport (nothing cut off at a phone's edges). */
async function expectInsideViewport(page: Page, selector: string) {
  const box = await page.locator(selector).first().boundingBox();
  const viewport = page.viewportSize();
  if (!box || !viewport) throw new Error(`${selector} is not on screen`);
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.y).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(viewport.width + 0.5);
  expect(box.y + box.height).toBeLessThanOrEqual(viewport.height + 0.5);
}

describe("Settings → Privacy", () => {
  /** Alice allows only people she has written to; Dave, whom she never wrote to, has her chat open and is refused. */
  async function daveRefused(): Promise<{ alice: Someone; dave: Someone; alicePage: Page; davePage: Page; refused: string }> {
    const alice = await someone("alice", "Alice", "female");
    const dave = await someone("dave", "Dave", "male");
    await allowOnlyContacts(alice);
    const alicePage = await suite.open(alice.username);
    const davePage = await suite.open(dave.username);
    await startChat(davePage, alice.name);
    const refused = `Hi ${alice.name}, I am ${dave.name}`;
    await sendMessage(davePage, alice.name, refused);
    const notice = davePage.locator('.conversation-notice[role="alert"]');
    await notice.waitFor();
    expect((await notice.textContent())?.trim()).toBe(REFUSAL);
    return { alice, dave, alicePage, davePage, refused };
  }

  test("Alice chooses 'People I have written to': saved at once, with a toast", async () => {
    const who = await someone("alice", "Alice", "female");
    const alice = await suite.open(who.username);
    await openSettings(alice, /^Privacy/);
    await alice.getByRole("heading", { name: "Privacy" }).waitFor();
    const everyone = alice.getByRole("radio", { name: /^Everyone/ });
    const contactsOnly = alice.getByRole("radio", { name: /^People I have written to/ });
    expect(await everyone.isChecked()).toBe(true);
    expect(await contactsOnly.isChecked()).toBe(false);
    // A controlled radio: it turns on once the server has saved it, so click (not check()).
    await contactsOnly.click();
    await alice.getByText("Privacy settings saved").waitFor();
    await alice.waitForFunction(() =>
      [...document.querySelectorAll<HTMLInputElement>(".privacy-choice input")].some((i) => i.value === "contacts" && i.checked),
    );
    expect(await everyone.isChecked()).toBe(false);
    expect(allowFrom(who)).toBe("contacts");
    await screenshot(alice, "safety-privacy");
  }, SCREENS);

  test("Dave, whom Alice never wrote to, is refused with the server's words; nothing reaches Alice", async () => {
    const { dave, alicePage: alice, davePage, refused } = await daveRefused();
    await screenshot(davePage, "safety-privacy-refused");

    // The server refused Dave's message before his notice showed, so a frame it sent Alice would
    // have left before the Chats tab asks for its unread counts; her list is checked once that
    // answer is drawn.
    const chats = alice.waitForResponse((r) => new URL(r.url()).pathname.startsWith("/api/messages/unread/"));
    await alice.locator('[data-tab="chats"]').click();
    await (await chats).finished();
    await pageSettled(alice);
    expect(await alice.locator(".sidebar-panel .row", { hasText: dave.name }).count()).toBe(0);
    expect(await alice.locator('[data-tab="chats"] .badge').count()).toBe(0);
    expect(countMessages(refused)).toBe(0);
  }, SCREENS);

  test("after Alice writes to Dave once, his next message arrives", async () => {
    const { alice: who, dave: daveWho, alicePage: alice, davePage: dave, refused } = await daveRefused();
    const hello = `Hello ${daveWho.name}, ${who.name} here`;
    const thanks = `Thanks for writing back, ${who.name}`;
    await startChat(alice, daveWho.name);
    await sendMessage(alice, daveWho.name, hello);
    await alice.locator(".message-row.is-own .message-text", { hasText: hello }).waitFor();
    expect(countMessages(hello)).toBe(1);

    // Dave's open chat receives Alice's message; his next one goes through and the notice goes.
    await dave.locator(".message-text", { hasText: hello }).waitFor();
    await sendMessage(dave, who.name, thanks);
    await dave.locator(".message-row.is-own .message-text", { hasText: thanks }).waitFor();
    await dave.locator('.conversation-notice[role="alert"]').waitFor({ state: "detached" });
    await alice.locator(".message-row:not(.is-own) .message-text", { hasText: thanks }).waitFor();
    expect(countMessages(thanks)).toBe(1);
    expect(countMessages(refused)).toBe(0);
  }, SCREENS);

  test("Alice goes back to 'Everyone'", async () => {
    const who = await someone("alice", "Alice", "female");
    await allowOnlyContacts(who);
    const alice = await suite.open(who.username);
    await openSettings(alice, /^Privacy/);
    await alice.waitForFunction(() =>
      [...document.querySelectorAll<HTMLInputElement>(".privacy-choice input")].some((i) => i.value === "contacts" && i.checked),
    );
    await alice.getByRole("radio", { name: /^Everyone/ }).click();
    await alice.waitForFunction(() =>
      [...document.querySelectorAll<HTMLInputElement>(".privacy-choice input")].some((i) => i.value === "everyone" && i.checked),
    );
    expect(allowFrom(who)).toBe("everyone");
  }, SCREENS);
});

describe("reporting a single message", () => {
  test("Alice reports Bob's message from its menu; the report names that message", async () => {
    const { alice: aliceWho, bob: bobWho } = await bobWritesToAlice();
    const alice = await suite.open(aliceWho.username);
    await openChat(alice, bobWho.name);
    const row = alice.locator(".message-row:not(.is-own)", { hasText: THREAT });
    await row.waitFor();
    const messageId = Number(await row.getAttribute("data-message-id"));
    const stored = readServerDb(suite.server, (db) => db.query("SELECT id FROM messages WHERE content = ? AND sender_id = ?").get(THREAT, bobWho.id) as { id: number });
    expect(messageId).toBe(stored.id);

    await row.hover();
    const menuButton = row.getByRole("button", { name: "Message options" });
    await menuButton.click();
    expect(await menuButton.getAttribute("aria-expanded")).toBe("true");
    await row.getByRole("menu").waitFor();
    await screenshot(alice, "safety-message-menu");
    await row.getByRole("menuitem", { name: "Report message" }).click();

    const dialog = alice.getByRole("dialog", { name: `Report ${bobWho.name}` });
    await dialog.waitFor();
    const sendButton = dialog.getByRole("button", { name: "Send report" });
    expect(await sendButton.isDisabled()).toBe(true);
    await dialog.getByLabel("Violence or threats").check();
    expect(await sendButton.isEnabled()).toBe(true);
    await sendButton.click();
    await alice.getByText(THANKS).waitFor();
    // The same dialog offers to block him; Alice declines.
    await alice.getByRole("dialog", { name: `Block ${bobWho.name}?` }).waitFor();
    await alice.getByRole("button", { name: "Not now" }).click();
    await alice.getByRole("dialog").waitFor({ state: "detached" });
    expect(isBlocked(aliceWho, bobWho)).toBe(false);

    const reports = reportsOf(aliceWho, bobWho);
    expect(reports.length).toBe(1);
    expect(reports[0]?.context).toBe("message");
    expect(reports[0]?.message_id).toBe(messageId);
    expect(reports[0]?.reason).toBe("violence");
    expect(reports[0]?.status).toBe("open");
    expect(reports[0]?.transcript).toContain(THREAT);
  }, SCREENS);
});

describe("Block and Report from a profile", () => {
  const aliceAndCarol = async () => ({ alice: await someone("alice", "Alice", "female"), carol: await someone("carol", "Carol", "female") });

  test("Alice blocks Carol from her profile (confirmed), then unblocks her", async () => {
    const { alice: aliceWho, carol } = await aliceAndCarol();
    const alice = await suite.open(aliceWho.username);
    const profile = await openProfile(alice, carol.name);

    await profile.getByRole("button", { name: "Block User", exact: true }).click();
    const confirm = alice.getByRole("alertdialog", { name: `Block ${carol.name}?` });
    await confirm.getByText("They won't be able to message or call you, and you won't see each other.").waitFor();
    await confirm.getByRole("button", { name: "Block" }).click();
    await confirm.waitFor({ state: "detached" });
    await alice.getByText(`You blocked ${carol.name}`).waitFor();
    await profile.getByRole("button", { name: "Unblock User", exact: true }).waitFor();
    expect(await profile.getByRole("button", { name: "Block User", exact: true }).count()).toBe(0);
    expect(isBlocked(aliceWho, carol)).toBe(true);
    await screenshot(alice, "safety-profile-blocked");

    await profile.getByRole("button", { name: "Unblock User", exact: true }).click();
    await alice.getByText(`You unblocked ${carol.name}`).waitFor();
    await profile.getByRole("button", { name: "Block User", exact: true }).waitFor();
    expect(isBlocked(aliceWho, carol)).toBe(false);
  }, SCREENS);

  test("Report User on the profile stores a report with context 'profile'", async () => {
    const { alice: aliceWho, carol } = await aliceAndCarol();
    const alice = await suite.open(aliceWho.username);
    const profile = await openProfile(alice, carol.name);
    await profile.getByRole("button", { name: "Report User" }).click();
    const dialog = alice.getByRole("dialog", { name: `Report ${carol.name}` });
    await dialog.waitFor();
    await dialog.getByLabel("Spam or scam").check();
    await dialog.getByLabel("Details (optional)").fill("Her profile links to a shady shop.");
    await dialog.getByRole("button", { name: "Send report" }).click();
    await alice.getByText(THANKS).first().waitFor();
    await alice.getByRole("dialog", { name: `Block ${carol.name}?` }).waitFor();
    await alice.getByRole("button", { name: "Not now" }).click();
    await alice.getByRole("dialog").waitFor({ state: "detached" });

    const reports = reportsOf(aliceWho, carol);
    expect(reports.length).toBe(1);
    expect(reports[0]?.context).toBe("profile");
    expect(reports[0]?.reason).toBe("spam");
    expect(reports[0]?.details).toBe("Her profile links to a shady shop.");
    expect(reports[0]?.message_id).toBeNull();
    expect(isBlocked(aliceWho, carol)).toBe(false);
  }, SCREENS);
});

describe("the 18+ gate for an account made before the rule", () => {
  test("Start on the Video Chat tab asks first; Cancel records nothing, Confirm records it and starts", async () => {
    const erinWho = await someone("erin", "Erin", "female");
    const bobWho = await someone("bob", "Bob", "male");
    // As if Erin had registered before the 18+ box existed.
    const db = new Database(join(suite.server.dataDir, "chat.sqlite"));
    try {
      // The server may be writing (presence, a session's touch): wait for its lock as it does,
      // rather than fail at once with "database is locked" (SQLite's default is no wait).
      db.exec("PRAGMA busy_timeout = 10000");
      db.query("UPDATE users SET adult_confirmed_at = NULL WHERE id = ?").run(erinWho.id);
    } finally {
      db.close();
    }
    expect(adultConfirmedAt(erinWho)).toBeNull();
    // Bob is online, to be called at the end.
    await suite.open(bobWho.username);

    const erin = await suite.open(erinWho.username, { camera: true });
    await openVideoTab(erin, TIMEOUT);
    const roulette = erin.locator("section.roulette");
    const start = roulette.getByRole("button", { name: "Start Video Chat" });
    await erin.waitForFunction(() => {
      const button = [...document.querySelectorAll<HTMLButtonElement>("section.roulette button")].find((b) => b.textContent?.includes("Start Video Chat"));
      return button !== undefined && !button.disabled;
    }, undefined, WAIT);

    await start.click();
    const modal = erin.getByRole("dialog", { name: "Confirm your age" });
    await modal.waitFor();
    const confirm = modal.getByRole("button", { name: "Confirm" });
    const box = modal.getByRole("checkbox", { name: /I am 18 or older/ });
    expect(await confirm.isDisabled()).toBe(true);
    expect(await box.isChecked()).toBe(false);
    await screenshot(erin, "safety-adult-confirm");

    await modal.getByRole("button", { name: "Cancel" }).click();
    await modal.waitFor({ state: "detached" });
    await pageSettled(erin);
    expect(await roulette.getAttribute("data-status")).toBe("disconnected");
    expect(adultConfirmedAt(erinWho)).toBeNull();

    await start.click();
    await modal.waitFor();
    expect(await confirm.isDisabled()).toBe(true);
    await box.check();
    expect(await confirm.isEnabled()).toBe(true);
    await confirm.click();
    await modal.waitFor({ state: "detached" });
    await roulette.getByText("Looking for someone to chat with...").waitFor();
    expect(await roulette.getAttribute("data-status")).toBe("searching");
    const confirmedAt = adultConfirmedAt(erinWho);
    expect(confirmedAt).not.toBeNull();
    expect(Math.abs(Date.now() - Number(confirmedAt))).toBeLessThan(60_000);

    await roulette.getByRole("button", { name: "Stop" }).click();
    await start.waitFor();

    // Confirmed once: the chat header's call button goes straight to the call.
    await startChat(erin, bobWho.name);
    await erin.getByRole("button", { name: `Video call ${bobWho.name}` }).click();
    const call = erin.getByRole("dialog", { name: `Video call with ${bobWho.name}` });
    await call.getByText(`Calling ${bobWho.name}`).waitFor();
    expect(await erin.getByRole("dialog", { name: "Confirm your age" }).count()).toBe(0);
    await call.getByRole("button", { name: "Cancel" }).click();
    await call.waitFor({ state: "detached" });
  }, SCREENS);
});

describe("the phone layout at 375 px", () => {
  test("the chat header's menu and the report dialog fit the screen", async () => {
    const { alice: aliceWho, bob } = await bobWritesToAlice();
    const alice = await suite.open(aliceWho.username, { context: MOBILE });
    await openChat(alice, bob.name);
    await alice.getByRole("button", { name: `More options for ${bob.name}` }).click();
    await alice.getByRole("menu").waitFor();
    await expectInsideViewport(alice, ".chat-header-menu .menu-popup");
    await screenshot(alice, "safety-mobile-chat-menu");
    await alice.getByRole("menuitem", { name: "Report" }).click();

    const dialog = alice.getByRole("dialog", { name: `Report ${bob.name}` });
    await dialog.waitFor();
    await dialog.getByLabel("Harassment or hate").check();
    await dialog.getByLabel("Details (optional)").fill("Threatening messages after I stopped answering.");
    await expectInsideViewport(alice, ".report-dialog");
    await expectInsideViewport(alice, '.report-dialog button[type="submit"]');
    await screenshot(alice, "safety-mobile-report-dialog");
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await dialog.waitFor({ state: "detached" });
  }, SCREENS);

  test("a message's menu opens whole, inside the conversation, even on the last message", async () => {
    const { alice: aliceWho, bob } = await bobWritesToAlice();
    const alice = await suite.open(aliceWho.username, { context: MOBILE });
    await openChat(alice, bob.name);
    const row = alice.locator(".message-row:not(.is-own)", { hasText: THREAT });
    await row.getByRole("button", { name: "Message options" }).click();
    const popup = row.locator(".menu-popup");
    await popup.waitFor();
    await animationsDone(alice, ".message-menu .menu-popup");
    await screenshot(alice, "safety-mobile-message-menu");
    // Wholly visible: inside the screen and inside the scrolling message list (nothing clipped).
    await expectInsideViewport(alice, ".message-menu .menu-popup");
    const list = await alice.locator(".message-list").boundingBox();
    const box = await popup.boundingBox();
    if (!list || !box) throw new Error("no message list or menu on screen");
    expect(box.x).toBeGreaterThanOrEqual(list.x);
    expect(box.y).toBeGreaterThanOrEqual(list.y);
    expect(box.x + box.width).toBeLessThanOrEqual(list.x + list.width + 0.5);
    expect(box.y + box.height).toBeLessThanOrEqual(list.y + list.height + 0.5);
    await alice.keyboard.press("Escape");
    await popup.waitFor({ state: "detached" });
  }, SCREENS);

  test("Settings → Blocked people lists them with Unblock inside the screen", async () => {
    const aliceWho = await someone("alice", "Alice", "female");
    const dave = await someone("dave", "Dave", "male");
    // The long name as it is: the test is about it fitting the row.
    const max = (await signIn(suite.server, await suite.account("max", LONG_NAME, { gender: "female" }))).user;
    for (const userId of [dave.id, max.id]) {
      const response = await api(aliceWho, "/api/blocks", { method: "POST", body: JSON.stringify({ userId }) });
      expect(response.status).toBe(201);
    }
    const alice = await suite.open(aliceWho.username, { context: MOBILE });
    await openSettings(alice, /^Blocked people/);
    await alice.getByRole("heading", { name: "Blocked people" }).waitFor();
    const rows = alice.locator(".blocked-row");
    await rows.nth(1).waitFor();
    expect(await rows.count()).toBe(2);
    expect(await rows.nth(0).locator(".blocked-name").textContent()).toBe(LONG_NAME);
    for (const name of [LONG_NAME, dave.name]) {
      const button = alice.getByRole("button", { name: `Unblock ${name}` });
      const box = await button.boundingBox();
      expect(box).not.toBeNull();
      expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(375);
    }
    await animationsDone(alice, ".tab-bar"); // the tab colours' transition
    await screenshot(alice, "safety-mobile-blocked-list");

    await alice.getByRole("button", { name: `Unblock ${dave.name}` }).click();
    await alice.getByText(`You unblocked ${dave.name}`).waitFor();
    await alice.locator(".blocked-row", { hasText: dave.name }).waitFor({ state: "detached" });
    expect(isBlocked(aliceWho, dave)).toBe(false);
    expect(isBlocked(aliceWho, max)).toBe(true);
  }, SCREENS);
});
