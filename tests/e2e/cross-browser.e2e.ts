// Chromium and Firefox together against the real server (ICE_SERVERS=[]: host candidates only): a video
// call each way between them, and a Video Roulette pairing of a Chromium user with a Firefox user,
// each time with both remote videos showing frames and their time advancing; in Firefox the
// on-device nudity check then lifts the stranger's blur. Chromium runs through
// playwright-core, Debian's Firefox ESR through puppeteer-core over WebDriver BiDi
// (support/firefox.ts). Screenshots of both browsers go to tests/e2e/screenshots/.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { openSignedIn, registerAccount } from "./support/accounts.ts";
import { DESKTOP, launchBrowser } from "./support/browser.ts";
import {
  clickButton,
  firefoxScreenshot,
  firefoxVideoPlays,
  launchFirefox,
  openSignedInFirefox,
  type FirefoxBrowser,
  type FirefoxPage,
} from "./support/firefox.ts";
import { screenshot } from "./support/screenshots.ts";
import { startServer, type RunningServer } from "./support/server.ts";

let server: RunningServer;
let chromium: Browser | undefined;
let firefox: FirefoxBrowser | undefined;
const contexts: BrowserContext[] = [];
const TIMEOUT = 15_000;
const WAIT = { timeout: TIMEOUT };
const MODEL_TIMEOUT = 90_000;

/** A Chromium page signed in as `username`, allowed to use the fake camera and microphone. */
async function openChromium(username: string): Promise<Page> {
  const page = await openSignedIn(browser(), server, username, { context: { ...DESKTOP, permissions: ["camera", "microphone"] }, dismissDialogs: true, ...WAIT });
  contexts.push(page.context());
  return page;
}

const browser = () => {
  if (!chromium) throw new Error("Chromium did not start");
  return chromium;
};

const firefoxBrowser = () => {
  if (!firefox) throw new Error("Firefox did not start");
  return firefox;
};

/** Chromium: the video named `label` shows frames and its time advances. */
async function chromiumVideoPlays(page: Page, label: string) {
  const selector = `video[aria-label="${label}"]`;
  await page.waitForFunction((s) => (document.querySelector<HTMLVideoElement>(s)?.videoWidth ?? 0) > 0, selector, WAIT);
  const before = await page.$eval(selector, (v: HTMLVideoElement) => v.currentTime);
  await page.waitForFunction(([s, t]) => (document.querySelector<HTMLVideoElement>(s as string)?.currentTime ?? 0) > (t as number) + 0.3, [selector, before] as const, WAIT);
  return page.$eval(selector, (v: HTMLVideoElement) => ({ width: v.videoWidth, height: v.videoHeight, paused: v.paused }));
}

const overlay = (page: Page) => page.getByRole("dialog", { name: /^Video call with / });
const OVERLAY = '.call-overlay[role="dialog"]';

/** Firefox: waits until nothing matches `selector`. */
const firefoxGone = (page: FirefoxPage, selector: string) => page.waitForFunction((s) => !document.querySelector(s), { timeout: TIMEOUT }, selector);

beforeAll(async () => {
  server = await startServer();
  // Both at once; each one that started is kept for afterAll even when the other one failed.
  const [c, f] = await Promise.allSettled([launchBrowser(), launchFirefox()]);
  if (c.status === "fulfilled") chromium = c.value;
  if (f.status === "fulfilled") firefox = f.value;
  if (c.status === "rejected") throw c.reason;
  if (f.status === "rejected") throw f.reason;
  await registerAccount(server, "alice", "Alice");
  await registerAccount(server, "bob", "Bob", { gender: "male", country_code: "FR", country_name: "France" });
}, 60_000);

afterAll(async () => {
  for (const context of contexts) await context.close().catch(() => {});
  await Promise.all([chromium?.close().catch(() => {}), firefox?.close().catch(() => {})]);
  await server?.stop();
});

describe("Chromium and Firefox", () => {
  let alice: Page;
  let bob: FirefoxPage;

  test("Chromium calls Firefox: both remote videos play", async () => {
    alice = await openChromium("alice");
    bob = await openSignedInFirefox(firefoxBrowser(), server, "bob", TIMEOUT);
    await alice.locator(".sidebar-panel").getByRole("button", { name: /Bob/ }).first().click();
    await alice.getByRole("button", { name: "Start Chat" }).click();
    await alice.getByRole("button", { name: "Video call Bob" }).click();

    await bob.waitForFunction(() => document.querySelector(".call-overlay")?.textContent?.includes("is calling..."), { timeout: TIMEOUT });
    await firefoxScreenshot(bob, "cross-call-incoming");
    await clickButton(bob, "Accept", { within: OVERLAY });

    const seenByAlice = await chromiumVideoPlays(alice, "Bob's video");
    const seenByBob = await firefoxVideoPlays(bob, `video[aria-label="Alice's video"]`, TIMEOUT);
    expect(seenByAlice.width).toBeGreaterThan(0);
    expect(seenByBob.width).toBeGreaterThan(0);
    expect(seenByAlice.paused || seenByBob.paused).toBe(false);
    await screenshot(alice, "cross-call-chromium-to-firefox");
    await firefoxScreenshot(bob, "cross-call-chromium-to-firefox");

    await overlay(alice).getByRole("button", { name: "End call" }).click();
    await overlay(alice).waitFor({ state: "detached", ...WAIT });
    await firefoxGone(bob, OVERLAY);
  });

  test("Firefox calls Chromium: both remote videos play", async () => {
    await clickButton(bob, "Alice", { within: ".sidebar-panel", contains: true });
    await clickButton(bob, "Start Chat", { contains: true });
    await clickButton(bob, "Video call Alice");

    await overlay(alice).getByRole("button", { name: "Accept" }).click(WAIT);
    const seenByBob = await firefoxVideoPlays(bob, `video[aria-label="Alice's video"]`, TIMEOUT);
    const seenByAlice = await chromiumVideoPlays(alice, "Bob's video");
    expect(seenByBob.width).toBeGreaterThan(0);
    expect(seenByAlice.width).toBeGreaterThan(0);
    expect(seenByAlice.paused || seenByBob.paused).toBe(false);
    await firefoxScreenshot(bob, "cross-call-firefox-to-chromium");
    await screenshot(alice, "cross-call-firefox-to-chromium");

    await clickButton(bob, "End call", { within: OVERLAY });
    await firefoxGone(bob, OVERLAY);
    await overlay(alice).waitFor({ state: "detached", ...WAIT });
  });

  test("Video Roulette pairs a Chromium user with a Firefox user and both see the other's video", async () => {
    await alice.locator('[data-tab="video"]').click();
    await alice.locator("section.roulette").getByRole("button", { name: "Start Video Chat" }).click();
    await alice.locator("section.roulette").getByText("Looking for someone to chat with...").waitFor(WAIT);

    await (await bob.waitForSelector('[data-tab="video"]', { timeout: TIMEOUT }))?.click();
    await clickButton(bob, "Start Video Chat", { within: "section.roulette" });
    // Paired: Firefox shows the stranger blurred while its on-device check runs (next test).
    await bob.waitForSelector("video.roulette-remote.is-blurred", { timeout: TIMEOUT });

    const seenByAlice = await chromiumVideoPlays(alice, "Partner's video");
    const seenByBob = await firefoxVideoPlays(bob, `video[aria-label="Partner's video"]`, TIMEOUT);
    expect(seenByAlice.width).toBeGreaterThan(0);
    expect(seenByBob.width).toBeGreaterThan(0);
    await alice.waitForFunction(() => document.querySelector("section.roulette")?.getAttribute("data-status") === "connected", null, WAIT);
    await bob.waitForFunction(() => document.querySelector("section.roulette")?.getAttribute("data-status") === "connected", { timeout: TIMEOUT });
    // Strangers: each sees the other's country, not their name.
    expect(await alice.locator("section.roulette .roulette-partner span").textContent()).toContain("France");
    expect(await bob.$eval("section.roulette .roulette-partner span", (e) => e.textContent)).toContain("Germany");

    // The stranger is blurred until the on-device check passes; "Show anyway" lifts it at once. The
    // check may pass between looking and clicking, so a click that finds no button is no failure.
    const blurredForAlice = alice.locator("section.roulette").getByRole("group", { name: "Blurred video" });
    if (await blurredForAlice.isVisible()) await blurredForAlice.getByRole("button", { name: "Show anyway", exact: true }).click({ timeout: 2_000 }).catch(() => {});
    await alice.waitForFunction(() => !document.querySelector("video.roulette-remote.is-blurred"), null, WAIT);
    await screenshot(alice, "cross-roulette");
  });

  test("in Firefox the on-device nudity check lifts the blur from the Chromium stranger's test pattern", async () => {
    // The classifier (nsfwjs in a module worker) loads in Firefox too: about 10 s here, bounded as in nudity.e2e.ts.
    await bob.waitForFunction(() => !document.querySelector("video.roulette-remote.is-blurred"), { timeout: MODEL_TIMEOUT });
    expect(await bob.$('section.roulette [aria-label="Blurred video"]')).toBeNull();
    await firefoxScreenshot(bob, "cross-roulette");

    await clickButton(bob, "Stop", { within: "section.roulette" });
    await alice.waitForFunction(() => document.querySelector("section.roulette")?.getAttribute("data-status") !== "connected", null, WAIT);
  });
});
