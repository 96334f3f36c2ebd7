// Toasts never cover the chat header's controls (issue 19): the guest welcome toast slid up over
// the call button as it left, and a click there was lost. A guest signs in with a conversation
// already open (the saved selection), and every animation frame until the toast has gone compares
// each toast's box with the header's buttons, and asks the page what a click at each button's
// centre would reach. At 1280 and 375 px.
import { describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { registerAccount } from "./support/accounts.ts";
import { DESKTOP, MOBILE } from "./support/browser.ts";
import { animationsDone } from "./support/screens.ts";
import { screenshot } from "./support/screenshots.ts";
import { browserSuite } from "./support/suite.ts";

let bobId = 0;
const suite = browserSuite({
  setup: async (server) => {
    bobId = (await registerAccount(server, "bob", "Bob", { gender: "male", age: 34 })).user.id;
  },
  closeAfterEach: true,
});

interface Overlap {
  toast: string;
  button: string;
  how: string;
}

interface Sampled {
  overlaps: Overlap[];
  /** Frames with a toast on screen while the chat header was there. */
  frames: number;
  /** Frames after the toast had been fully shown in which it was fading or moving away. */
  leavingFrames: number;
  gone: boolean;
}

/**
 * In the page from its first script: the saved selection opens Bob's chat, and a sampler runs every
 * animation frame once the chat header exists, until the toasts it saw have left the page.
 */
function sampler(selectedUserId: number) {
  localStorage.setItem("selectedUserId", String(selectedUserId));
  localStorage.setItem("selectedViewMode", "chat");
  localStorage.setItem("activeTab", "users");
  const record = { overlaps: [] as { toast: string; button: string; how: string }[], frames: 0, leavingFrames: 0, gone: false };
  (window as unknown as { __toasts: typeof record }).__toasts = record;
  let shownFully = false;
  const meets = (a: DOMRect, b: DOMRect) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  const tick = () => {
    const header = document.querySelector(".chat-header");
    const bars = [...document.querySelectorAll<HTMLElement>("[data-rht-toaster] > div > div")];
    if (header && bars.length > 0) {
      record.frames += 1;
      const buttons = [...header.querySelectorAll<HTMLElement>("button")].filter((b) => b.getBoundingClientRect().width > 0);
      for (const bar of bars) {
        const style = getComputedStyle(bar);
        const opacity = Number(style.opacity);
        if (opacity >= 0.99) shownFully = true;
        else if (shownFully) record.leavingFrames += 1;
        const box = bar.getBoundingClientRect();
        for (const button of buttons) {
          const name = button.getAttribute("aria-label") ?? button.textContent ?? "";
          const target = button.getBoundingClientRect();
          // Seen, or invisible but still in the way of a click: either covers the button.
          if (meets(box, target) && (opacity > 0 || style.pointerEvents !== "none")) {
            record.overlaps.push({ toast: bar.textContent ?? "", button: name, how: `toast ${Math.round(box.top)}-${Math.round(box.bottom)} px over button ${Math.round(target.top)}-${Math.round(target.bottom)} px, opacity ${opacity.toFixed(2)}` });
          }
          const hit = document.elementFromPoint(target.left + target.width / 2, target.top + target.height / 2);
          if (hit?.closest("[data-rht-toaster]")) record.overlaps.push({ toast: bar.textContent ?? "", button: name, how: "a click at its centre reaches the toast" });
        }
      }
    }
    if (record.frames > 0 && bars.length === 0) {
      record.gone = true;
      return;
    }
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}

async function guestWithChatOpen(size: typeof DESKTOP | typeof MOBILE): Promise<Page> {
  const context = await suite.newContext(size);
  await context.addCookies([{ name: "consent", value: "necessary", url: suite.server.url }]);
  await context.addInitScript(sampler, bobId);
  const page = await context.newPage();
  page.on("pageerror", (error) => console.error("[guest] page error:", error.message));
  await page.goto("/");
  await page.click("label[for=tab-guest]");
  await page.click(".panel-guest label:has-text('Female')");
  await page.check("#guest-adult");
  await page.click(".panel-guest button[type=submit]");
  await page.locator(".chat-header").waitFor();
  return page;
}

for (const [label, size] of [
  ["1280 px", DESKTOP],
  ["375 px", MOBILE],
] as const) {
  describe(`toasts at ${label}`, () => {
    test("the guest welcome toast never covers the chat header's buttons, while it shows or while it leaves", async () => {
      const page = await guestWithChatOpen(size);
      await page.getByText("You are chatting as a guest").waitFor();
      await animationsDone(page, "[data-rht-toaster]");
      await screenshot(page, "toast-welcome-over-chat");
      await page.waitForFunction(() => (window as unknown as { __toasts: Sampled }).__toasts.gone, null, { timeout: 15_000 });
      const record = await page.evaluate(() => (window as unknown as { __toasts: Sampled }).__toasts);
      expect(record.frames).toBeGreaterThan(10);
      expect(record.leavingFrames).toBeGreaterThan(0);
      expect(record.overlaps.slice(0, 5)).toEqual([]);
      // And the call button takes a click at once.
      await page.getByRole("button", { name: "Video call Bob" }).click({ trial: true, timeout: 1000 });
    }, 60_000);
  });
}
