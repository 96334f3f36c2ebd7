// Launches Debian's Firefox ESR through puppeteer-core over WebDriver BiDi (Playwright's Firefox
// needs its own patched build, which Debian does not ship). The prefs give it a fake camera and
// microphone without a permission prompt. No ICE pref is needed, nor does one help: Firefox offers
// only the address of the default route (the machine needs a network interface besides loopback,
// no internet), and Chromium reaches it there (DECISIONS "Issue 19: Firefox in the browser tests").
//
//   const firefox = await launchFirefox();
//   const page = await openSignedInFirefox(firefox, server, "bob");
//   ...
//   await firefox.close();
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import puppeteer, { type Browser, type ElementHandle, type Page } from "puppeteer-core";
import { PASSWORD } from "./accounts.ts";
import { SCREENSHOT_DIR } from "./screenshots.ts";
import type { RunningServer } from "./server.ts";

export type { Browser as FirefoxBrowser, Page as FirefoxPage } from "puppeteer-core";

export const FIREFOX_PATH = process.env.FIREFOX_PATH ?? "/usr/bin/firefox-esr";

export const FIREFOX_PREFS: Record<string, boolean | number | string> = {
  // A synthetic camera and microphone, granted without asking.
  "media.navigator.streams.fake": true,
  "media.navigator.permission.disabled": true,
};

export function launchFirefox(): Promise<Browser> {
  return puppeteer.launch({
    browser: "firefox",
    executablePath: FIREFOX_PATH,
    headless: true,
    defaultViewport: { width: 1280, height: 800 },
    extraPrefsFirefox: FIREFOX_PREFS,
    // Bounds every protocol call, so a stuck browser fails the test instead of hanging it.
    protocolTimeout: 120_000,
    // Starting may take minutes on a loaded machine (puppeteer's default is 30 s).
    timeout: 150_000,
  });
}

/**
 * A new page in its own browser context, signed in as `username` (the login call from the page
 * sets the session cookie) on the chat screen, with the cookie banner answered.
 */
export async function openSignedInFirefox(browser: Browser, server: Pick<RunningServer, "url">, username: string, timeout = 15_000): Promise<Page> {
  const context = await browser.createBrowserContext();
  const page = await context.newPage();
  page.setDefaultTimeout(timeout);
  page.on("pageerror", (error) => console.error(`[${username} firefox] page error:`, error instanceof Error ? error.message : error));
  page.on("dialog", (dialog) => {
    console.error(`[${username} firefox] unexpected alert:`, dialog.message());
    void dialog.dismiss();
  });
  await page.goto(`${server.url}/`);
  const status = await page.evaluate(
    async (name, password) =>
      (await fetch("/api/auth/login", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ username: name, password }) })).status,
    username,
    PASSWORD,
  );
  if (status !== 200) throw new Error(`login ${username} in Firefox: ${status}`);
  await page.goto(`${server.url}/`);
  await page.waitForSelector(".chat-app .tab-bar", { timeout });
  const banner = await page.evaluate(() => [...document.querySelectorAll("button")].some((b) => b.textContent?.trim() === "Reject non-essential"));
  if (banner) await clickButton(page, "Reject non-essential", { timeout: 5_000 });
  return page;
}

/**
 * Waits for a visible button inside `within` whose accessible name (aria-label, else its text)
 * is `name` (or contains it, with `contains`), then clicks it with real input events.
 */
export async function clickButton(page: Page, name: string, options: { within?: string; contains?: boolean; timeout?: number } = {}): Promise<void> {
  const handle = await page.waitForFunction(
    (scope, wanted, contains) => {
      const root = document.querySelector(scope);
      if (!root) return null;
      for (const button of root.querySelectorAll<HTMLElement>("button, [role=button]")) {
        const label = (button.getAttribute("aria-label") ?? button.textContent ?? "").trim();
        const matches = contains ? label.includes(wanted) : label === wanted;
        if (matches && button.getClientRects().length > 0 && !(button as HTMLButtonElement).disabled) return button;
      }
      return null;
    },
    { timeout: options.timeout ?? 15_000 },
    options.within ?? "body",
    name,
    options.contains ?? false,
  );
  const element = handle.asElement() as ElementHandle<Element> | null;
  if (!element) throw new Error(`no button "${name}"`);
  await element.click();
  await handle.dispose();
}

/** Waits until `selector` matches a video that shows frames and whose time advances; answers its size. */
export async function firefoxVideoPlays(page: Page, selector: string, timeout = 15_000): Promise<{ width: number; height: number; paused: boolean }> {
  await page.waitForFunction((s) => (document.querySelector<HTMLVideoElement>(s)?.videoWidth ?? 0) > 0, { timeout }, selector);
  const before = await page.$eval(selector, (v) => (v as HTMLVideoElement).currentTime);
  await page.waitForFunction((s, t) => (document.querySelector<HTMLVideoElement>(s)?.currentTime ?? 0) > t + 0.3, { timeout }, selector, before);
  return page.$eval(selector, (v) => {
    const video = v as HTMLVideoElement;
    return { width: video.videoWidth, height: video.videoHeight, paused: video.paused };
  });
}

/** Saves the viewport as tests/e2e/screenshots/<name>-firefox-<width>.png, next to Chromium's. */
export async function firefoxScreenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const path = join(SCREENSHOT_DIR, `${name}-firefox-${page.viewport()?.width ?? 0}.png`);
  await page.screenshot({ path: path as `${string}.png` });
  return path;
}
