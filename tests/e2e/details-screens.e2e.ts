// Issue 10's small chat-screen details, as a person sees them in Chromium: the cookie banner
// beside (not over) the phone tab bar, names that keep their room in the user list, one
// "Attach files" button for screen readers, and a plain message when JavaScript is off.
import { describe, expect, test } from "bun:test";
import type { BrowserContextOptions, Page } from "playwright-core";
import { registerAccount } from "./support/accounts.ts";
import { DESKTOP, MOBILE } from "./support/browser.ts";
import { overlap } from "./support/screens.ts";
import { screenshot } from "./support/screenshots.ts";
import { browserSuite } from "./support/suite.ts";

const suite = browserSuite({
  setup: async (server) => {
    await registerAccount(server, "details_me", "Dana Example");
    await registerAccount(server, "details_nora", "Nora Whitfield");
  },
  closeAfterEach: true,
});

/** Signed in on the chat screen with the cookie banner still waiting for an answer. */
const firstVisit = (options: BrowserContextOptions): Promise<Page> => suite.firstVisit(options, "details_me");

describe("the cookie banner on the chat screen", () => {
  for (const [label, options] of [
    ["a phone", MOBILE],
    ["a desktop", DESKTOP],
  ] as const) {
    test(`on ${label} sits under the tab bar, and the user rows stay clickable`, async () => {
      const page = await firstVisit(options);
      const banner = page.locator("#consent");
      const tabBar = page.locator(".chat-app .tab-bar");
      const nora = page.locator(".row", { hasText: "Nora Whitfield" });
      await nora.waitFor();
      await expect(banner.isVisible()).resolves.toBe(true);
      const [bannerBox, barBox] = [await banner.boundingBox(), await tabBar.boundingBox()];
      expect(bannerBox && barBox && overlap(bannerBox, barBox)).toBe(false);
      expect(barBox!.y + barBox!.height).toBeLessThanOrEqual(bannerBox!.y + 1);
      // Inside the viewport, both of them.
      expect(bannerBox!.y + bannerBox!.height).toBeLessThanOrEqual(options.viewport.height + 1);
      const rowBox = await nora.boundingBox();
      expect(overlap(rowBox!, bannerBox!)).toBe(false);
      await screenshot(page, "details-banner-chat");
      // A real click (Playwright refuses when something else would receive it).
      await nora.click({ timeout: 5000 });
      await page.locator(".profile-view").waitFor({ timeout: 5000 });
      await page.getByRole("button", { name: "Reject non-essential" }).click();
      await expect(banner.isVisible()).resolves.toBe(false);
      // Answered: the chat takes the whole height again.
      const after = await page.locator(".chat-app").boundingBox();
      expect(Math.round(after!.height)).toBe(options.viewport.height);
    }, 60_000);
  }
});

describe("the user list on a phone", () => {
  test("shows 'Nora Whitfield' whole next to 'Seen less than a minute ago'", async () => {
    const page = await suite.open("details_me", { context: MOBILE });
    const row = page.locator(".row", { hasText: "Nora Whitfield" });
    await row.waitFor();
    await expect(row.textContent()).resolves.toContain("Seen less than a minute ago");
    const name = row.locator(".row-name");
    const fits = await name.evaluate((el) => ({ text: el.textContent, cut: el.scrollWidth > el.clientWidth }));
    expect(fits).toEqual({ text: "Nora Whitfield", cut: false });
    await screenshot(page, "details-user-list");
  }, 60_000);
});

describe("the message box", () => {
  test("offers one 'Attach files' button to assistive technology", async () => {
    const page = await suite.open("details_me", { context: DESKTOP });
    await page.locator(".row", { hasText: "Nora Whitfield" }).click();
    await page.getByRole("button", { name: "Start Chat" }).click();
    await page.getByRole("textbox", { name: "Message Nora Whitfield" }).waitFor();
    await expect(page.getByRole("button", { name: "Attach files" }).count()).resolves.toBe(1);
    const snapshot = await page.locator(".chat-window").ariaSnapshot();
    expect(snapshot.match(/Attach files/g)?.length).toBe(1);
    await screenshot(page, "details-conversation");
  }, 60_000);
});

describe("performance metrics", () => {
  test("the page load, each API route and the send-to-ack time show in window.__webchatPerf", async () => {
    const page = await suite.open("details_me", { context: DESKTOP });
    await page.locator(".row", { hasText: "Nora Whitfield" }).click();
    await page.getByRole("button", { name: "Start Chat" }).click();
    const box = page.getByRole("textbox", { name: "Message Nora Whitfield" });
    await box.fill("Hello Nora");
    await box.press("Enter");
    await page.locator(".bubble", { hasText: "Hello Nora" }).waitFor();
    await page.waitForFunction(() => window.__webchatPerf?.["ack send_message"]?.count === 1);
    const summary = await page.evaluate(() => window.__webchatPerf ?? {});
    expect(Object.keys(summary)).toEqual(expect.arrayContaining(["first_load", "api GET /api/users", "api GET /api/messages/:id", "ack send_message"]));
    expect(summary["first_load"]?.count).toBe(1);
    expect(summary["first_load"]?.lastMs).toBeGreaterThan(0);
  }, 60_000);
});

describe("with JavaScript off", () => {
  test("the chat page says the chat needs JavaScript instead of loading forever", async () => {
    const page = await firstVisit({ ...MOBILE, javaScriptEnabled: false });
    await expect(page.getByRole("heading", { name: "The chat needs JavaScript" }).isVisible()).resolves.toBe(true);
    await expect(page.getByText("Loading...").first().isVisible()).resolves.toBe(false);
    await expect(page.locator(".skeleton-row").first().isVisible()).resolves.toBe(false);
    await expect(page.getByRole("button", { name: "Log out" }).isVisible()).resolves.toBe(true);
    await screenshot(page, "details-noscript");
    // The way out works without scripts too.
    await page.getByRole("button", { name: "Log out" }).click();
    await page.waitForURL(suite.server.url + "/");
    await expect(page.locator('form[action="/auth/login"]').count()).resolves.toBe(1);
  }, 60_000);
});
