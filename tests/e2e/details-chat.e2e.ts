// Chat details in real Chromium (issue 10): unread badges that stay cleared when the counters'
// answers come back late, toasts that keep clear of the chat header's call button, and a logout
// that signs out even when the server call fails. Screenshots go to tests/e2e/screenshots/.
import { describe, expect, test } from "bun:test";
import type { Page, Route } from "playwright-core";
import sharp from "sharp";
import { until } from "../islands/waits.ts";
import { type Account, apiAs, registerAccount } from "./support/accounts.ts";
import { overlap, pageSettled, startChat } from "./support/screens.ts";
import { screenshot } from "./support/screenshots.ts";
import { browserSuite } from "./support/suite.ts";

let bob: Account;
const suite = browserSuite({
  setup: async (server) => {
    await registerAccount(server, "alice", "Alice");
    bob = await registerAccount(server, "bob", "Bob", { gender: "male" });
  },
  open: { logConsoleErrors: true, listLoaded: true },
});

/** How long a slow phone waits for the counters: answered by the server at once, delivered late. */
const SLOW_MS = 1500;

/** A photo to Bob through the API, without opening the site: the sender is in his chat list, offline. */
async function photoToBob(sender: Account): Promise<void> {
  const form = new FormData();
  const photo = await sharp({ create: { width: 64, height: 64, channels: 3, background: "#7c3aed" } }).png().toBuffer();
  form.append("file", new Blob([photo], { type: "image/png" }), "hello.png");
  form.append("receiverId", String(bob.user.id));
  const sent = await apiAs(suite.server, sender.token, "/api/messages/upload", { method: "POST", body: form });
  expect(sent.status).toBe(201);
}

let bobOnScreen: Promise<Page> | undefined;
/** Bob's chat screen, opened by whichever test needs it first. */
const openBob = () => (bobOnScreen ??= suite.open("bob"));

describe("chat details at 1280 px", () => {
  test("badges stay cleared when the counters asked for before the chat was opened arrive after it", async () => {
    const bobPage = await openBob();
    const alice = await suite.open("alice");
    await startChat(alice, "Bob");
    const box = alice.getByRole("textbox", { name: "Message Bob" });
    for (const text of ["Hi Bob!", "Are you there?"]) {
      await box.fill(text);
      await box.press("Enter");
    }
    const tabBadge = bobPage.locator('[data-tab="chats"] .badge');
    await bobPage.waitForFunction(() => document.querySelector('[data-tab="chats"] .badge')?.textContent === "2");

    // The server answers at once (before the chat is read); the phone gets the answer late.
    const routed = { asked: 0, delivered: 0 };
    const slow = async (route: Route) => {
      routed.asked += 1;
      const response = await route.fetch();
      await new Promise((resolve) => setTimeout(resolve, SLOW_MS));
      await route.fulfill({ response });
      routed.delivered += 1;
    };
    /** Every answer held back so far has reached the page, and the page has drawn what it did with it. */
    const allDelivered = async () => {
      await until(() => routed.asked > 0 && routed.delivered === routed.asked, "the held-back counters delivered", 15_000);
      await pageSettled(bobPage);
    };
    await bobPage.route("**/api/messages/unread/**", slow);
    // The tab's refresh leaves 100 ms after the switch: the row is opened once it has been asked.
    const refresh = bobPage.waitForRequest("**/api/messages/unread/**");
    await bobPage.locator('[data-tab="chats"]').click();
    await refresh;
    const row = bobPage.locator(".sidebar-panel .row", { hasText: "Alice" });
    await row.click();
    await bobPage.locator(".message-text", { hasText: "Are you there?" }).waitFor();
    await alice.waitForFunction(() => [...document.querySelectorAll(".message-row.is-own .ticks")].at(-1)?.getAttribute("data-status") === "read");

    await allDelivered();
    expect(await tabBadge.count()).toBe(0);
    expect(await row.locator(".badge").count()).toBe(0);
    // Whatever was asked again once the read landed also ends at zero.
    await allDelivered();
    expect(await tabBadge.count()).toBe(0);
    expect(await row.locator(".badge").count()).toBe(0);
    await screenshot(bobPage, "details-unread-cleared");
    // Held-back answers still in flight are delivered before the next test.
    await bobPage.unrouteAll({ behavior: "wait" });
  });

  test("a toast keeps clear of the chat header's call button and menu", async () => {
    const bobPage = await openBob();
    // Carol writes to Bob without opening the site (a photo through the API), so she is in his
    // chat list and offline; opening her page then makes "Carol is now online" on his screen.
    await photoToBob(await registerAccount(suite.server, "carol", "Carol"));
    await bobPage.locator(".sidebar-panel .row", { hasText: "Carol" }).waitFor();
    await suite.open("carol");

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
    expect(overlap(bar, call)).toBe(false);
  });

  test("a newcomer in my chats coming online makes one toast, not more", async () => {
    const bobPage = await openBob();
    await photoToBob(await registerAccount(suite.server, "dave", "Dave"));
    await bobPage.locator('[data-tab="chats"]').click();
    const row = bobPage.locator(".sidebar-panel .row", { hasText: "Dave" });
    await row.waitFor();
    await suite.open("dave");
    const toasts = bobPage.getByRole("status").filter({ hasText: "Dave" });
    await toasts.first().waitFor();
    // Every event his arrival sent has been handled once his row shows him online.
    await row.locator(".presence-dot.is-online").waitFor();
    await pageSettled(bobPage);
    expect(await toasts.allTextContents()).toEqual(["Dave is now online"]);
  });

  test("logout ends on the signed-out landing page even when the server call fails, and stays there", async () => {
    const bobPage = await openBob();
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
    const me = await apiAs(suite.server, decodeURIComponent(sid ?? ""), "/api/auth/me");
    expect(me.status).toBe(401);
    await screenshot(bobPage, "details-after-failed-logout");
  });
});
