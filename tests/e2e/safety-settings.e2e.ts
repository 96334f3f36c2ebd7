// Safety settings and the remaining safety entry points in real Chromium against the real server:
// Settings → Privacy "People I have written to" refuses a stranger's message with the server's
// words until Alice writes to him; Report on a single message's menu stores the message id; Block,
// Unblock and Report from a profile; the 18+ modal for an account made before the 18+ rule (Cancel
// records nothing, Confirm records it and the Video Chat starts); and the phone layout (375 px) of
// the chat header's menu, the report dialog and Blocked people. Screenshots go to
// tests/e2e/screenshots/.
import { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { BrowserContextOptions, Page } from "playwright-core";
import { registerAccount, type Account } from "./support/accounts.ts";
import { DESKTOP, MOBILE } from "./support/browser.ts";
import { animationsDone, openConversation as openChat, openSettings, openVideoTab, pageSettled, sendMessage, startChat } from "./support/screens.ts";
import { screenshot } from "./support/screenshots.ts";
import { readServerDb } from "./support/data.ts";
import { browserSuite } from "./support/suite.ts";

const accounts = new Map<string, Account>();
const WAIT = { timeout: 15_000 };
const REFUSAL = "This person only accepts messages from people they have written to";
const THANKS = "Thanks. Our moderators will review your report.";
const LONG_NAME = "Maximiliane Alexandra von Hohenzollern-Sigmaringen";

const suite = browserSuite({
  setup: async (server) => {
    for (const [username, name, gender] of [
      ["alice", "Alice", "female"],
      ["bob", "Bob", "male"],
      ["carol", "Carol", "female"],
      ["dave", "Dave", "male"],
      ["erin", "Erin", "female"],
      ["max", LONG_NAME, "female"],
    ] as const) {
      accounts.set(username, await registerAccount(server, username, name, { gender }));
    }
  },
  open: { logConsoleErrors: true, listLoaded: true, defaultTimeout: WAIT.timeout },
});

const id = (username: string): number => {
  const account = accounts.get(username);
  if (!account) throw new Error(`no account ${username}`);
  return account.user.id;
};

/** Calls the API as one of the test's people. */
function api(username: string, path: string, init: RequestInit = {}): Promise<Response> {
  return fetch(`${suite.server.url}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${accounts.get(username)?.token}`, origin: suite.server.url, ...init.headers },
  });
}

const countMessages = (content: string) =>
  readServerDb(suite.server, (db) => (db.query("SELECT count(*) AS n FROM messages WHERE content = ?").get(content) as { n: number }).n);
const allowFrom = (username: string) =>
  readServerDb(suite.server, (db) => (db.query("SELECT allow_from FROM users WHERE id = ?").get(id(username)) as { allow_from: string }).allow_from);
const adultConfirmedAt = (username: string) =>
  readServerDb(suite.server, (db) => (db.query("SELECT adult_confirmed_at FROM users WHERE id = ?").get(id(username)) as { adult_confirmed_at: number | null }).adult_confirmed_at);
const isBlocked = (blocker: string, blocked: string) =>
  readServerDb(suite.server, (db) => db.query("SELECT 1 FROM blocks WHERE blocker_id = ? AND blocked_id = ?").get(id(blocker), id(blocked)) !== null);

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
const reportsOf = (reporter: string, reported: string) =>
  readServerDb(suite.server, (db) => db.query("SELECT * FROM reports WHERE reporter_id = ? AND reported_id = ? ORDER BY id").all(id(reporter), id(reported)) as ReportRow[]);

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
  let alice: Page;
  let dave: Page;

  test("Alice chooses 'People I have written to': saved at once, with a toast", async () => {
    alice = await suite.open("alice");
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
    expect(allowFrom("alice")).toBe("contacts");
    await screenshot(alice, "safety-privacy");
  });

  test("Dave, whom Alice never wrote to, is refused with the server's words; nothing reaches Alice", async () => {
    dave = await suite.open("dave");
    await startChat(dave, "Alice");
    await sendMessage(dave, "Alice", "Hi Alice, I am Dave");
    const notice = dave.locator('.conversation-notice[role="alert"]');
    await notice.waitFor();
    expect((await notice.textContent())?.trim()).toBe(REFUSAL);
    await screenshot(dave, "safety-privacy-refused");

    // The server refused Dave's message before his notice showed, so a frame it sent Alice would
    // have left before the Chats tab asks for its unread counts; her list is checked once that
    // answer is drawn.
    const chats = alice.waitForResponse((r) => new URL(r.url()).pathname.startsWith("/api/messages/unread/"));
    await alice.locator('[data-tab="chats"]').click();
    await (await chats).finished();
    await pageSettled(alice);
    expect(await alice.locator(".sidebar-panel .row", { hasText: "Dave" }).count()).toBe(0);
    expect(await alice.locator('[data-tab="chats"] .badge').count()).toBe(0);
    expect(countMessages("Hi Alice, I am Dave")).toBe(0);
  });

  test("after Alice writes to Dave once, his next message arrives", async () => {
    await startChat(alice, "Dave");
    await sendMessage(alice, "Dave", "Hello Dave, Alice here");
    await alice.locator(".message-row.is-own .message-text", { hasText: "Hello Dave, Alice here" }).waitFor();
    expect(countMessages("Hello Dave, Alice here")).toBe(1);

    // Dave's open chat receives Alice's message; his next one goes through and the notice goes.
    await dave.locator(".message-text", { hasText: "Hello Dave, Alice here" }).waitFor();
    await sendMessage(dave, "Alice", "Thanks for writing back");
    await dave.locator(".message-row.is-own .message-text", { hasText: "Thanks for writing back" }).waitFor();
    await dave.locator('.conversation-notice[role="alert"]').waitFor({ state: "detached" });
    await alice.locator(".message-row:not(.is-own) .message-text", { hasText: "Thanks for writing back" }).waitFor();
    expect(countMessages("Thanks for writing back")).toBe(1);
    expect(countMessages("Hi Alice, I am Dave")).toBe(0);
  });

  test("Alice goes back to 'Everyone'", async () => {
    await openSettings(alice, /^Privacy/);
    await alice.getByRole("radio", { name: /^Everyone/ }).click();
    await alice.waitForFunction(() =>
      [...document.querySelectorAll<HTMLInputElement>(".privacy-choice input")].some((i) => i.value === "everyone" && i.checked),
    );
    expect(allowFrom("alice")).toBe("everyone");
  });
});

describe("reporting a single message", () => {
  test("Alice reports Bob's message from its menu; the report names that message", async () => {
    const bob = await suite.open("bob");
    await startChat(bob, "Alice");
    await sendMessage(bob, "Alice", "Nice to meet you");
    await sendMessage(bob, "Alice", "Send me your number or else");
    await bob.locator(".message-row.is-own .message-text", { hasText: "Send me your number or else" }).waitFor();

    const alice = await suite.open("alice");
    await openChat(alice, "Bob");
    const row = alice.locator(".message-row:not(.is-own)", { hasText: "Send me your number or else" });
    await row.waitFor();
    const messageId = Number(await row.getAttribute("data-message-id"));
    const stored = readServerDb(suite.server, (db) => db.query("SELECT id FROM messages WHERE content = ?").get("Send me your number or else") as { id: number });
    expect(messageId).toBe(stored.id);

    await row.hover();
    const menuButton = row.getByRole("button", { name: "Message options" });
    await menuButton.click();
    expect(await menuButton.getAttribute("aria-expanded")).toBe("true");
    await row.getByRole("menu").waitFor();
    await screenshot(alice, "safety-message-menu");
    await row.getByRole("menuitem", { name: "Report message" }).click();

    const dialog = alice.getByRole("dialog", { name: "Report Bob" });
    await dialog.waitFor();
    const sendButton = dialog.getByRole("button", { name: "Send report" });
    expect(await sendButton.isDisabled()).toBe(true);
    await dialog.getByLabel("Violence or threats").check();
    expect(await sendButton.isEnabled()).toBe(true);
    await sendButton.click();
    await alice.getByText(THANKS).waitFor();
    // The same dialog offers to block him; Alice declines.
    await alice.getByRole("dialog", { name: "Block Bob?" }).waitFor();
    await alice.getByRole("button", { name: "Not now" }).click();
    await alice.getByRole("dialog").waitFor({ state: "detached" });
    expect(isBlocked("alice", "bob")).toBe(false);

    const reports = reportsOf("alice", "bob");
    expect(reports.length).toBe(1);
    expect(reports[0]?.context).toBe("message");
    expect(reports[0]?.message_id).toBe(messageId);
    expect(reports[0]?.reason).toBe("violence");
    expect(reports[0]?.status).toBe("open");
    expect(reports[0]?.transcript).toContain("Send me your number or else");
  });
});

describe("Block and Report from a profile", () => {
  let alice: Page;

  test("Alice blocks Carol from her profile (confirmed), then unblocks her", async () => {
    alice = await suite.open("alice");
    await alice.locator('[data-tab="users"]').click();
    await alice.locator(".sidebar-panel").getByRole("button", { name: /Carol/ }).click();
    const profile = alice.locator("section.profile-view");
    await profile.getByRole("heading", { name: "Carol" }).waitFor();

    await profile.getByRole("button", { name: "Block User", exact: true }).click();
    const confirm = alice.getByRole("alertdialog", { name: "Block Carol?" });
    await confirm.getByText("They won't be able to message or call you, and you won't see each other.").waitFor();
    await confirm.getByRole("button", { name: "Block" }).click();
    await confirm.waitFor({ state: "detached" });
    await alice.getByText("You blocked Carol").waitFor();
    await profile.getByRole("button", { name: "Unblock User", exact: true }).waitFor();
    expect(await profile.getByRole("button", { name: "Block User", exact: true }).count()).toBe(0);
    expect(isBlocked("alice", "carol")).toBe(true);
    await screenshot(alice, "safety-profile-blocked");

    await profile.getByRole("button", { name: "Unblock User", exact: true }).click();
    await alice.getByText("You unblocked Carol").waitFor();
    await profile.getByRole("button", { name: "Block User", exact: true }).waitFor();
    expect(isBlocked("alice", "carol")).toBe(false);
  });

  test("Report User on the profile stores a report with context 'profile'", async () => {
    const profile = alice.locator("section.profile-view");
    await profile.getByRole("button", { name: "Report User" }).click();
    const dialog = alice.getByRole("dialog", { name: "Report Carol" });
    await dialog.waitFor();
    await dialog.getByLabel("Spam or scam").check();
    await dialog.getByLabel("Details (optional)").fill("Her profile links to a shady shop.");
    await dialog.getByRole("button", { name: "Send report" }).click();
    await alice.getByText(THANKS).first().waitFor();
    await alice.getByRole("dialog", { name: "Block Carol?" }).waitFor();
    await alice.getByRole("button", { name: "Not now" }).click();
    await alice.getByRole("dialog").waitFor({ state: "detached" });

    const reports = reportsOf("alice", "carol");
    expect(reports.length).toBe(1);
    expect(reports[0]?.context).toBe("profile");
    expect(reports[0]?.reason).toBe("spam");
    expect(reports[0]?.details).toBe("Her profile links to a shady shop.");
    expect(reports[0]?.message_id).toBeNull();
    expect(isBlocked("alice", "carol")).toBe(false);
  });
});

describe("the 18+ gate for an account made before the rule", () => {
  test("Start on the Video Chat tab asks first; Cancel records nothing, Confirm records it and starts", async () => {
    // As if Erin had registered before the 18+ box existed.
    const db = new Database(join(suite.server.dataDir, "chat.sqlite"));
    try {
      db.query("UPDATE users SET adult_confirmed_at = NULL WHERE id = ?").run(id("erin"));
    } finally {
      db.close();
    }
    expect(adultConfirmedAt("erin")).toBeNull();

    const erin = await suite.open("erin", { camera: true });
    await openVideoTab(erin);
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
    expect(adultConfirmedAt("erin")).toBeNull();

    await start.click();
    await modal.waitFor();
    expect(await confirm.isDisabled()).toBe(true);
    await box.check();
    expect(await confirm.isEnabled()).toBe(true);
    await confirm.click();
    await modal.waitFor({ state: "detached" });
    await roulette.getByText("Looking for someone to chat with...").waitFor();
    expect(await roulette.getAttribute("data-status")).toBe("searching");
    const confirmedAt = adultConfirmedAt("erin");
    expect(confirmedAt).not.toBeNull();
    expect(Math.abs(Date.now() - Number(confirmedAt))).toBeLessThan(60_000);

    await roulette.getByRole("button", { name: "Stop" }).click();
    await start.waitFor();

    // Confirmed once: the chat header's call button goes straight to the call.
    await startChat(erin, "Bob");
    await erin.getByRole("button", { name: "Video call Bob" }).click();
    const call = erin.getByRole("dialog", { name: "Video call with Bob" });
    await call.getByText("Calling Bob").waitFor();
    expect(await erin.getByRole("dialog", { name: "Confirm your age" }).count()).toBe(0);
    await call.getByRole("button", { name: "Cancel" }).click();
    await call.waitFor({ state: "detached" });
  });
});

describe("the phone layout at 375 px", () => {
  test("the chat header's menu and the report dialog fit the screen", async () => {
    const alice = await suite.open("alice", { context: MOBILE });
    await openChat(alice, "Bob");
    await alice.getByRole("button", { name: "More options for Bob" }).click();
    await alice.getByRole("menu").waitFor();
    await expectInsideViewport(alice, ".chat-header-menu .menu-popup");
    await screenshot(alice, "safety-mobile-chat-menu");
    await alice.getByRole("menuitem", { name: "Report" }).click();

    const dialog = alice.getByRole("dialog", { name: "Report Bob" });
    await dialog.waitFor();
    await dialog.getByLabel("Harassment or hate").check();
    await dialog.getByLabel("Details (optional)").fill("Threatening messages after I stopped answering.");
    await expectInsideViewport(alice, ".report-dialog");
    await expectInsideViewport(alice, '.report-dialog button[type="submit"]');
    await screenshot(alice, "safety-mobile-report-dialog");
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await dialog.waitFor({ state: "detached" });
  });

  test("a message's menu opens whole, inside the conversation, even on the last message", async () => {
    const alice = await suite.open("alice", { context: MOBILE });
    await openChat(alice, "Bob");
    const row = alice.locator(".message-row:not(.is-own)", { hasText: "Send me your number or else" });
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
  });

  test("Settings → Blocked people lists them with Unblock inside the screen", async () => {
    for (const username of ["dave", "max"]) {
      const response = await api("alice", "/api/blocks", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ userId: id(username) }),
      });
      expect(response.status).toBe(201);
    }
    const alice = await suite.open("alice", { context: MOBILE });
    await openSettings(alice, /^Blocked people/);
    await alice.getByRole("heading", { name: "Blocked people" }).waitFor();
    const rows = alice.locator(".blocked-row");
    await rows.nth(1).waitFor();
    expect(await rows.count()).toBe(2);
    expect(await rows.nth(0).locator(".blocked-name").textContent()).toBe(LONG_NAME);
    for (const name of [LONG_NAME, "Dave"]) {
      const button = alice.getByRole("button", { name: `Unblock ${name}` });
      const box = await button.boundingBox();
      expect(box).not.toBeNull();
      expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(375);
    }
    await animationsDone(alice, ".tab-bar"); // the tab colours' transition
    await screenshot(alice, "safety-mobile-blocked-list");

    await alice.getByRole("button", { name: "Unblock Dave" }).click();
    await alice.getByText("You unblocked Dave").waitFor();
    await alice.locator(".blocked-row", { hasText: "Dave" }).waitFor({ state: "detached" });
    expect(isBlocked("alice", "dave")).toBe(false);
    expect(isBlocked("alice", "max")).toBe(true);
  });
});
