// Issue 13's keyboard walk, in real Chromium: the focus stays in the message box after Send, the
// emoji picker takes the focus on every opening and hands it back on Escape, the cookie banner
// comes first in the tab order, never covers what has the focus and leaves the focus on the page
// when answered, and the tab bar is a tab list (arrows, Home/End) reached before the user rows.
import { describe, expect, test } from "bun:test";
import type { BrowserContextOptions, Page } from "playwright-core";
import { registerAccount } from "./support/accounts.ts";
import { DESKTOP, MOBILE } from "./support/browser.ts";
import { pageSettled, startChat, type Box } from "./support/screens.ts";
import { screenshot } from "./support/screenshots.ts";
import { browserSuite } from "./support/suite.ts";

const suite = browserSuite({
  setup: async (server) => {
    await registerAccount(server, "keys_me", "Kim Keyboard");
    for (let i = 1; i <= 12; i++) await registerAccount(server, `keys_p${i}`, `Person ${String(i).padStart(2, "0")}`);
  },
  closeAfterEach: true,
});

/** The area of `a` that `b` covers, as a share of `a` (0 to 1). */
const covered = (a: Box, b: Box) => {
  const w = Math.max(0, Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x));
  const h = Math.max(0, Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y));
  return a.width * a.height ? (w * h) / (a.width * a.height) : 0;
};

/** What has the focus: a short description and its box in the viewport. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement;
    const r = el?.getBoundingClientRect();
    return {
      tag: el?.tagName.toLowerCase() ?? "",
      label: el?.getAttribute("aria-label") ?? el?.getAttribute("id") ?? el?.textContent?.trim().slice(0, 40) ?? "",
      inBanner: Boolean(el?.closest("#consent")),
      box: r ? { x: r.x, y: r.y, width: r.width, height: r.height } : { x: 0, y: 0, width: 0, height: 0 },
    };
  });

/** Presses Tab until the focused element matches `selector` (and holds `text`, when given), at most `limit` times; returns the presses. */
async function tabUntil(page: Page, selector: string, text = "", limit = 60): Promise<number> {
  for (let presses = 1; presses <= limit; presses++) {
    await page.keyboard.press("Tab");
    const reached = await page.evaluate(
      ([s, t]) => Boolean(document.activeElement?.matches(s) && (document.activeElement.textContent ?? "").includes(t)),
      [selector, text] as const,
    );
    if (reached) return presses;
  }
  throw new Error(`Tab never reached ${selector} ${text} (${limit} presses); last: ${JSON.stringify(await focused(page))}`);
}

/** Asserts the cookie banner is shown and covers none of the focused element. */
async function expectFocusClearOfBanner(page: Page, what: string) {
  const banner = await page.locator("#consent").boundingBox();
  const focus = await focused(page);
  expect(banner).not.toBeNull();
  expect({ what, focus: focus.label, covered: covered(focus.box, banner!) }).toEqual({ what, focus: focus.label, covered: 0 });
  // And the focused element is inside the viewport, not scrolled out of it.
  const height = page.viewportSize()!.height;
  expect(focus.box.y).toBeGreaterThanOrEqual(0);
  expect(focus.box.y + focus.box.height).toBeLessThanOrEqual(height + 1);
}

/** A page without a cookie choice yet, signed in (the chat screen) or not (the landing page). */
async function firstVisit(options: BrowserContextOptions, signedIn: boolean): Promise<Page> {
  const page = await suite.firstVisit(options, signedIn ? "keys_me" : undefined);
  if (signedIn) await page.locator(".row", { hasText: "Person 12" }).waitFor();
  return page;
}

/** The chat with `name` opened from All Users; answers its message box. */
async function chatBoxWith(page: Page, name: string) {
  await startChat(page, name);
  return page.getByRole("textbox", { name: `Message ${name}` });
}

const activeIs = (page: Page, selector: string) => page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector);

describe("sending from the keyboard", () => {
  test("Enter in the message box sends, and the box keeps the focus", async () => {
    const page = await suite.open("keys_me", { context: DESKTOP });
    const box = await chatBoxWith(page, "Person 01");
    await box.focus();
    await page.keyboard.type("Sent with Enter");
    await page.keyboard.press("Enter");
    await page.locator(".bubble", { hasText: "Sent with Enter" }).waitFor();
    await expect(activeIs(page, "textarea")).resolves.toBe(true);
    // Typing goes straight on into the box.
    await page.keyboard.type("next");
    await expect(box.inputValue()).resolves.toBe("next");
  }, 60_000);

  for (const key of ["Space", "Enter"]) {
    test(`${key} on the Send button sends, and the focus goes back to the message box`, async () => {
      const page = await suite.open("keys_me", { context: DESKTOP });
      const box = await chatBoxWith(page, "Person 02");
      await box.focus();
      await page.keyboard.type(`Sent with ${key}`);
      await tabUntil(page, '[aria-label="Send message"]', "", 3);
      await page.keyboard.press(key);
      await page.locator(".bubble", { hasText: `Sent with ${key}` }).waitFor();
      await page.waitForFunction(() => document.activeElement?.matches("textarea") ?? false);
      await expect(activeIs(page, "textarea")).resolves.toBe(true);
    }, 60_000);
  }
});

describe("the emoji picker from the keyboard", () => {
  test("every opening puts the focus in the picker's search, and Escape gives it back to the Emoji button", async () => {
    const page = await suite.open("keys_me", { context: DESKTOP });
    const box = await chatBoxWith(page, "Person 03");
    const emoji = page.getByRole("button", { name: "Emoji" });
    const search = page.locator(".emoji-popover input");
    for (const round of [1, 2, 3]) {
      await emoji.focus();
      await page.keyboard.press("Enter");
      await page.locator(".EmojiPickerReact").waitFor({ timeout: 10_000 });
      await page.waitForFunction(() => document.activeElement?.matches(".emoji-popover input") ?? false);
      expect({ round, inSearch: await search.evaluate((el) => el === document.activeElement) }).toEqual({ round, inSearch: true });
      // Typed into the search, the picker's own Escape clears it first and keeps the picker open.
      if (round === 2) {
        await page.keyboard.type("cat");
        await expect(search.inputValue()).resolves.toBe("cat");
        await pageSettled(page);
        await screenshot(page, "keyboard-emoji-search");
        await page.keyboard.press("Escape");
        await expect(search.inputValue()).resolves.toBe("");
        await expect(page.locator(".emoji-popover").isVisible()).resolves.toBe(true);
      }
      await page.keyboard.press("Escape");
      await expect(page.locator(".emoji-popover").isVisible()).resolves.toBe(false);
      expect({ round, onButton: await emoji.evaluate((el) => el === document.activeElement) }).toEqual({ round, onButton: true });
      await expect(emoji.getAttribute("aria-expanded")).resolves.toBe("false");
    }
    // A picked emoji still lands in the box, and the box has the focus.
    await emoji.click();
    await page.locator(".emoji-popover input").waitFor();
    await page.locator(".EmojiPickerReact button.epr-emoji").first().click();
    await page.waitForFunction(() => (document.querySelector("textarea")?.value.length ?? 0) > 0);
    expect((await box.inputValue()).length).toBeGreaterThan(0);
    await expect(activeIs(page, "textarea")).resolves.toBe(true);
  }, 60_000);
});

describe("the cookie banner and the keyboard", () => {
  test("on a 375 px landing it comes right after the skip link, and the Login password and the agreement link show clear of it", async () => {
    const page = await firstVisit(MOBILE, false);
    await page.locator("#consent").waitFor();
    // The skip link first, then the banner, before anything else on the page.
    await page.keyboard.press("Tab");
    await expect(activeIs(page, ".skip-link")).resolves.toBe(true);
    await page.keyboard.press("Tab");
    expect((await focused(page)).inBanner).toBe(true);
    await tabUntil(page, "#login-password");
    await expectFocusClearOfBanner(page, "Login password");
    await screenshot(page, "keyboard-banner-landing-password");
    await tabUntil(page, ".panel-login [data-open-agreement]");
    await expectFocusClearOfBanner(page, "agreement link");
    await screenshot(page, "keyboard-banner-landing-agreement");
  }, 60_000);

  test("on a 375 px chat screen it comes first, and the tab bar and the user rows show clear of it", async () => {
    const page = await firstVisit(MOBILE, true);
    await page.keyboard.press("Tab");
    await expect(activeIs(page, ".skip-link")).resolves.toBe(true);
    await page.keyboard.press("Tab");
    expect((await focused(page)).inBanner).toBe(true);
    await tabUntil(page, '[role="tab"]');
    await expectFocusClearOfBanner(page, "tab bar");
    for (const name of ["Person 12", "Person 06", "Person 01"]) {
      await tabUntil(page, ".row", name);
      await expectFocusClearOfBanner(page, name);
    }
    await screenshot(page, "keyboard-banner-chat");
  }, 60_000);

  for (const [label, signedIn] of [
    ["the landing page", false],
    ["the chat screen", true],
  ] as const) {
    test(`Enter on Reject non-essential on ${label} leaves the focus on the page, not on <body>`, async () => {
      const page = await firstVisit(MOBILE, signedIn);
      await tabUntil(page, '#consent button[value="reject"]');
      await page.keyboard.press("Enter");
      await expect(page.locator("#consent").isVisible()).resolves.toBe(false);
      const after = await page.evaluate(() => ({
        body: document.activeElement === document.body || document.activeElement === null,
        inMain: Boolean(document.activeElement?.closest("#main")),
      }));
      expect(after).toEqual({ body: false, inMain: true });
      // The next Tab goes on into the page.
      await page.keyboard.press("Tab");
      expect(await page.evaluate(() => Boolean(document.activeElement?.closest("#main, header")))).toBe(true);
    }, 60_000);
  }

  test("with JavaScript off the banner stays first in the tab order, keeps clear of the Login password and still posts the choice", async () => {
    const page = await firstVisit({ ...MOBILE, javaScriptEnabled: false }, false);
    await page.keyboard.press("Tab");
    await page.keyboard.press("Tab");
    expect((await focused(page)).inBanner).toBe(true);
    // Without the script's measurement the CSS keeps room for the banner all the same.
    await tabUntil(page, "#login-password");
    await expectFocusClearOfBanner(page, "Login password without JavaScript");
    await page.getByRole("button", { name: "Reject non-essential" }).click();
    await page.waitForURL(suite.server.url + "/");
    await expect(page.locator("#consent").count()).resolves.toBe(0);
  }, 60_000);
});

describe("the tab bar", () => {
  for (const [label, size] of [
    ["a desktop", DESKTOP],
    ["a phone", MOBILE],
  ] as const) {
    test(`on ${label} Tab reaches it before the user rows, where it still sits`, async () => {
      const page = await suite.open("keys_me", { context: size });
      await page.locator(".row", { hasText: "Person 12" }).waitFor();
      const tabPresses = await tabUntil(page, '[role="tab"]');
      await expect(activeIs(page, '[data-tab="users"]')).resolves.toBe(true);
      await page.keyboard.press("Tab");
      await expect(activeIs(page, ".row, .sidebar-panel *")).resolves.toBe(true);
      expect(tabPresses).toBeGreaterThan(0);
      // Visually where it was: under the list.
      const [bar, list] = [await page.locator(".tab-bar").boundingBox(), await page.locator(".sidebar-panel").boundingBox()];
      expect(bar!.y).toBeGreaterThanOrEqual(list!.y + list!.height - 1);
    }, 60_000);
  }

  test("arrow keys move between the tabs, Home and End go to the first and the last, and one tab is in the tab order", async () => {
    const page = await suite.open("keys_me", { context: DESKTOP });
    await page.locator('[data-tab="users"]').focus();
    const at = () => page.evaluate(() => ({ focus: document.activeElement?.getAttribute("data-tab"), selected: document.querySelector('[role="tab"][aria-selected="true"]')?.getAttribute("data-tab") }));
    await page.keyboard.press("End");
    await expect(at()).resolves.toEqual({ focus: "settings", selected: "settings" });
    await page.keyboard.press("Home");
    await expect(at()).resolves.toEqual({ focus: "users", selected: "users" });
    await page.keyboard.press("ArrowLeft");
    await expect(at()).resolves.toEqual({ focus: "settings", selected: "settings" });
    await page.keyboard.press("ArrowRight");
    await expect(at()).resolves.toEqual({ focus: "users", selected: "users" });
    await page.keyboard.press("ArrowRight");
    await expect(at()).resolves.toEqual({ focus: "chats", selected: "chats" });
    const roving = await page.locator('[role="tab"]').evaluateAll((tabs) => tabs.map((t) => (t as HTMLElement).tabIndex));
    expect(roving).toEqual([-1, 0, -1, -1]);
    // The tab controls the panel, which is named by it.
    const panel = await page.evaluate(() => {
      const tab = document.querySelector('[role="tab"][aria-selected="true"]');
      const target = document.getElementById(tab?.getAttribute("aria-controls") ?? "");
      return { role: target?.getAttribute("role"), labelledBy: target?.getAttribute("aria-labelledby") === tab?.id };
    });
    expect(panel).toEqual({ role: "tabpanel", labelledBy: true });
  }, 60_000);
});
