// Chromium and Firefox together against the real server (ICE_SERVERS=[]: host candidates only): a video
// call each way between them, and a Video Roulette pairing of a Chromium user with a Firefox user,
// each time with both remote videos showing frames and their time advancing; in Firefox the
// on-device nudity check then lifts the stranger's blur. Chromium runs through
// playwright-core, Debian's Firefox ESR through puppeteer-core over WebDriver BiDi
// (support/firefox.ts). Every test makes its own people and browser contexts. Screenshots of both
// browsers go to tests/e2e/screenshots/.
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import {
  clickButton,
  firefoxScreenshot,
  firefoxVideoPlays,
  launchFirefox,
  openSignedInFirefox,
  type FirefoxBrowser,
  type FirefoxPage,
} from "./support/firefox.ts";
import { person, type Person } from "./support/people.ts";
import { callOverlay, startChat, videoPlays } from "./support/screens.ts";
import { screenshot } from "./support/screenshots.ts";
import { browserSuite } from "./support/suite.ts";

/** Generous: Chromium, Firefox and the server share two loaded cores. */
const TIMEOUT = 120_000;
const WAIT = { timeout: TIMEOUT };
/** The classifier (nsfwjs in a module worker) loading in Firefox: about 10 s alone, much more under load. */
const MODEL_TIMEOUT = 180_000;
/** Two browsers with cameras: minutes on a loaded 2-core machine. */
const TWO_CAMERAS = 420_000;

let firefox: FirefoxBrowser | undefined;
const firefoxPages: FirefoxPage[] = [];

// Firefox may take minutes to start on a loaded machine.
beforeAll(async () => {
  firefox = await launchFirefox();
}, 180_000);

// Registered before the suite's own: each test's Firefox contexts are closed before the suite
// closes Chromium's and waits until the server holds no socket.
afterEach(async () => {
  for (const page of firefoxPages.splice(0)) await page.browserContext().close().catch(() => {});
});

afterAll(async () => {
  await firefox?.close().catch(() => {});
});

const suite = browserSuite({ open: { camera: true, dismissDialogs: true, timeout: TIMEOUT, defaultTimeout: TIMEOUT }, isolated: true });

/** This test's Firefox page signed in as `who`, closed after the test. */
async function openFirefox(who: Person): Promise<FirefoxPage> {
  if (!firefox) throw new Error("Firefox did not start");
  const page = await openSignedInFirefox(firefox, suite.server, who.username, TIMEOUT);
  firefoxPages.push(page);
  return page;
}

/** Alice in Chromium, Bob (in France) in Firefox, both on the chat screen. */
async function aliceAndBob() {
  const who = { alice: await person(suite, "alice", "Alice"), bob: await person(suite, "bob", "Bob", { gender: "male", country_code: "FR", country_name: "France" }) };
  const alice = await suite.open(who.alice.username);
  const bob = await openFirefox(who.bob);
  return { who, alice, bob };
}

/** Chromium: the video named `label` shows frames and its time advances. */
const chromiumVideoPlays = (page: Page, label: string) => videoPlays(page, `video[aria-label="${label}"]`, TIMEOUT);

const OVERLAY = '.call-overlay[role="dialog"]';

/** Firefox: waits until nothing matches `selector`. */
const firefoxGone = (page: FirefoxPage, selector: string) => page.waitForFunction((s) => !document.querySelector(s), { timeout: TIMEOUT }, selector);

/** Alice starts Video Roulette and waits; then Bob; ends once Firefox shows the stranger blurred while its on-device check runs. */
async function pairedInRoulette() {
  const people = await aliceAndBob();
  const { alice, bob } = people;
  await alice.locator('[data-tab="video"]').click();
  await alice.locator("section.roulette").getByRole("button", { name: "Start Video Chat" }).click();
  await alice.locator("section.roulette").getByText("Looking for someone to chat with...").waitFor(WAIT);

  await (await bob.waitForSelector('[data-tab="video"]', { timeout: TIMEOUT }))?.click();
  await clickButton(bob, "Start Video Chat", { within: "section.roulette", timeout: TIMEOUT });
  await bob.waitForSelector("video.roulette-remote.is-blurred", { timeout: TIMEOUT });
  return people;
}

describe("Chromium and Firefox", () => {
  test("Chromium calls Firefox: both remote videos play", async () => {
    const { who, alice, bob } = await aliceAndBob();
    await startChat(alice, who.bob.name);
    await alice.getByRole("button", { name: `Video call ${who.bob.name}` }).click();

    await bob.waitForFunction(() => document.querySelector(".call-overlay")?.textContent?.includes("is calling..."), { timeout: TIMEOUT });
    await firefoxScreenshot(bob, "cross-call-incoming");
    await clickButton(bob, "Accept", { within: OVERLAY, timeout: TIMEOUT });

    const seenByAlice = await chromiumVideoPlays(alice, `${who.bob.name}'s video`);
    const seenByBob = await firefoxVideoPlays(bob, `video[aria-label="${who.alice.name}'s video"]`, TIMEOUT);
    expect(seenByAlice.width).toBeGreaterThan(0);
    expect(seenByBob.width).toBeGreaterThan(0);
    expect(seenByAlice.paused || seenByBob.paused).toBe(false);
    await screenshot(alice, "cross-call-chromium-to-firefox");
    await firefoxScreenshot(bob, "cross-call-chromium-to-firefox");

    await callOverlay(alice).getByRole("button", { name: "End call" }).click();
    await callOverlay(alice).waitFor({ state: "detached", ...WAIT });
    await firefoxGone(bob, OVERLAY);
  }, TWO_CAMERAS);

  test("Firefox calls Chromium: both remote videos play", async () => {
    const { who, alice, bob } = await aliceAndBob();
    await clickButton(bob, who.alice.name, { within: ".sidebar-panel", contains: true, timeout: TIMEOUT });
    await clickButton(bob, "Start Chat", { contains: true, timeout: TIMEOUT });
    await clickButton(bob, `Video call ${who.alice.name}`, { timeout: TIMEOUT });

    await callOverlay(alice).getByRole("button", { name: "Accept" }).click(WAIT);
    const seenByBob = await firefoxVideoPlays(bob, `video[aria-label="${who.alice.name}'s video"]`, TIMEOUT);
    const seenByAlice = await chromiumVideoPlays(alice, `${who.bob.name}'s video`);
    expect(seenByBob.width).toBeGreaterThan(0);
    expect(seenByAlice.width).toBeGreaterThan(0);
    expect(seenByAlice.paused || seenByBob.paused).toBe(false);
    await firefoxScreenshot(bob, "cross-call-firefox-to-chromium");
    await screenshot(alice, "cross-call-firefox-to-chromium");

    await clickButton(bob, "End call", { within: OVERLAY, timeout: TIMEOUT });
    await firefoxGone(bob, OVERLAY);
    await callOverlay(alice).waitFor({ state: "detached", ...WAIT });
  }, TWO_CAMERAS);

  test("Video Roulette pairs a Chromium user with a Firefox user and both see the other's video", async () => {
    const { alice, bob } = await pairedInRoulette();
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
  }, TWO_CAMERAS);

  test("in Firefox the on-device nudity check lifts the blur from the Chromium stranger's test pattern", async () => {
    const { alice, bob } = await pairedInRoulette();
    await bob.waitForFunction(() => !document.querySelector("video.roulette-remote.is-blurred"), { timeout: MODEL_TIMEOUT });
    expect(await bob.$('section.roulette [aria-label="Blurred video"]')).toBeNull();
    await firefoxScreenshot(bob, "cross-roulette");

    await clickButton(bob, "Stop", { within: "section.roulette", timeout: TIMEOUT });
    await alice.waitForFunction(() => document.querySelector("section.roulette")?.getAttribute("data-status") !== "connected", null, WAIT);
  }, TWO_CAMERAS);
});
