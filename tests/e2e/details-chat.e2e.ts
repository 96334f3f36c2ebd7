// Chat details in real Chromium (issue 10): unread badges that stay cleared when the counters'
// answers come back late, toasts that keep clear of the chat header's call button, and a logout
// that signs out even when the server call fails. Screenshots go to tests/e2e/screenshots/.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, BrowserContext, Page, Route } from "playwright-core";
import sharp from "sharp";
import { openSignedIn, registerAccount, type Account } from "./support/accounts.ts";
import { launchBrowser } from "./support/browser.ts";
import { screenshot } from "./support/screenshots.ts";
import { startServer, type RunningServer } from "./support/server.ts";

let server: RunningServer;
let browser: Browser;
let bob: Account;
const contexts: BrowserContext[] = [];

async function open(username: string): Promise<Page> {
  const page = await openSignedIn(browser, server, username, { logConsoleErrors: true });
  contexts.push(page.context());
  await page.locator(".sidebar-panel .skeleton-row").first().waitFor({ state: "detached" });
  return page;
}

/** How long a slow phone waits for the counters: answered by the server at once, delivered late. */
const SLOW_MS = 1500;

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
  await registerAccount(server, "alice", "Alice");
  bob = await registerAccount(server, "bob", "Bob", { gender: "male" });
});

afterAll(async () => {
  for (const context of contexts) await context.close().catch(() => {});
  await browser?.close();
  await server?.stop();
});

describe("chat details at 1280 px", () => {
  let alice: Page;
  let bobPage: Page;

  test("badges stay cleared when the counters asked for before the chat was opened arrive after it", async () => {
    bobPage = await open("bob");
    alice = await open("alice");
    await alice.locator(".sidebar-panel").getByRole("button", { name: /Bob/ }).click();
    await alice.getByRole("button", { name: "Start Chat" }).click();
    const box = alice.getByRole("textbox", { name: "Message Bob" });
    for (const text of ["Hi Bob!", "Are you there?"]) {
      await box.fill(text);
      await box.press("Enter");
    }
    const tabBadge = bobPage.locator('[data-tab="chats"] .badge');
    await bobPage.waitForFunction(() => document.querySelector('[data-tab="chats"] .badge')?.textContent === "2");

    // The server answers at once (before the chat is read); the phone gets the answer late.
    let delivered = 0;
    const slow = async (route: Route) => {
      const response = await route.fetch();
      await new Promise((resolve) => setTimeout(resolve, SLOW_MS));
      await route.fulfill({ response });
      delivered += 1;
    };
    await bobPage.route("**/api/messages/unread/**", slow);
    await bobPage.locator('[data-tab="chats"]').click();
    await bobPage.waitForTimeout(300); // the tab's refresh leaves 100 ms after the switch
    const row = bobPage.locator(".sidebar-panel .row", { hasText: "Alice" });
    await row.click();
    await bobPage.locator(".message-text", { hasText: "Are you there?" }).waitFor();
    await alice.waitForFunction(() => [...document.querySelectorAll(".message-row.is-own .ticks")].at(-1)?.getAttribute("data-status") === "read");

    const deadline = Date.now() + 10_000;
    while (delivered === 0 && Date.now() < deadline) await bobPage.waitForTimeout(100);
    expect(delivered).toBeGreaterThan(0);
    await bobPage.waitForTimeout(200);
    expect(await tabBadge.count()).toBe(0);
    expect(await row.locator(".badge").count()).toBe(0);
    // Whatever was asked again once the read landed also ends at zero.
    await bobPage.waitForTimeout(SLOW_MS + 800);
    expect(await tabBadge.count()).toBe(0);
    expect(await row.locator(".badge").count()).toBe(0);
    await screenshot(bobPage, "details-unread-cleared");
    await bobPage.unroute("**/api/messages/unread/**", slow);
  });

  test("a toast keeps clear of the chat header's call button and menu", async () => {
    // Carol writes to Bob without opening the site (a photo through the API), so she is in his
    // chat list and offline; opening her page then makes "Carol is now online" on his screen.
    const carol = await registerAccount(server, "carol", "Carol");
    const form = new FormData();
    const photo = await sharp({ create: { width: 64, height: 64, channels: 3, background: "#7c3aed" } }).png().toBuffer();
    form.append("file", new Blob([photo], { type: "image/png" }), "hello.png");
    form.append("receiverId", String(bob.user.id));
    const sent = await fetch(`${server.url}/api/messages/upload`, { method: "POST", headers: { authorization: `Bearer ${carol.token}` }, body: form });
    expect(sent.status).toBe(201);
    await bobPage.locator(".sidebar-panel .row", { hasText: "Carol" }).waitFor();
    await open("carol");

    const toast = bobPage.getByRole("status").filter({ hasText: "Carol is now online" });
    await toast.waitFor();
    // The toast slides in from above the window: measure it once its entrance animation is over.
    await toast.locator("..").evaluate((element) => Promise.all(element.getAnimations({ subtree: true }).map((a) => a.finished)));
    const bar = await toast.locator("..").boundingBox();
    const call = await bobPage.locator(".chat-header .call-button").boundingBox();
    const header = await bobPage.locator(".chat-header").boundingBox();
    if (!bar || !call || !header) throw new Error("toast, call button or header not on screen");
    await screenshot(bobPage, "details-toast-below-header");
    expect(bar.y).toBeGreaterThanOrEqual(header.y + header.height);
    const overlaps = bar.x < call.x + call.width && call.x < bar.x + bar.width && bar.y < call.y + call.height && call.y < bar.y + bar.height;
    expect(overlaps).toBe(false);
  });

  test("a newcomer makes at most one toast", async () => {
    await registerAccount(server, "dave", "Dave");
    await open("dave");
    await bobPage.locator(".sidebar-panel").first().waitFor();
    await bobPage.waitForTimeout(1500);
    expect(await bobPage.getByRole("status").filter({ hasText: "Dave" }).count()).toBeLessThanOrEqual(1);
  });

  test("logout ends on the signed-out landing page even when the server call fails, and stays there", async () => {
    const sid = (await bobPage.context().cookies()).find((c) => c.name === "sid")?.value;
    expect(sid).toBeTruthy();
    await bobPage.route("**/api/auth/logout", (route) => route.abort("failed"));
    await bobPage.locator('[data-tab="settings"]').click();
    bobPage.once("dialog", (d) => void d.accept());
    await bobPage.getByRole("button", { name: /Logout/ }).click();
    await bobPage.getByText("Logged out successfully").waitFor();
    await bobPage.locator('form[action="/auth/login"]').waitFor({ timeout: 10_000 });
    expect(new URL(bobPage.url()).pathname).toBe("/");
    expect(await bobPage.evaluate(() => localStorage.getItem("userId"))).toBeNull();
    await bobPage.reload();
    await bobPage.locator('form[action="/auth/login"]').waitFor();
    expect(await bobPage.locator(".chat-app").count()).toBe(0);
    // The session itself was ended, not only forgotten by this browser.
    const me = await fetch(`${server.url}/api/auth/me`, { headers: { authorization: `Bearer ${decodeURIComponent(sid ?? "")}`, origin: server.url } });
    expect(me.status).toBe(401);
    await screenshot(bobPage, "details-after-failed-logout");
  });
});
