// Video Roulette in real Chromium with fake cameras, against the real server (ICE_SERVERS=[]):
// two users press 'Start Video Chat' and see each other, as strangers (name "Stranger", country
// only); 'Next Partner' with a third user waiting pairs anew; 'Stop' returns to 'Start Video Chat' and releases the camera; closing one browser
// lets the other search again. Screenshots of each state go to tests/e2e/screenshots/.
import { describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { DESKTOP, MOBILE } from "./support/browser.ts";
import { openVideoTab, partnerCountry, rouletteButton, rouletteSection, rouletteStatus, videoPlays, waitForRouletteStatus } from "./support/screens.ts";
import { screenshot } from "./support/screenshots.ts";
import { browserSuite } from "./support/suite.ts";

const WAIT = { timeout: 15_000 };

const suite = browserSuite({ open: { camera: true, ...WAIT }, isolated: true });

// Each test makes its own people; each lives in another country, which tells who a stranger is.
const PEOPLE = {
  dan: ["Dan", "male", "DE", "Germany"],
  erin: ["Erin", "female", "FR", "France"],
  fay: ["Fay", "female", "IT", "Italy"],
} as const;

/** A new account like `who`, signed in on the Video Chat tab, allowed the fake camera and microphone. */
async function openRoulette(who: keyof typeof PEOPLE, size = DESKTOP): Promise<Page> {
  const [name, gender, code, country] = PEOPLE[who];
  const username = await suite.account(who, name, { gender, age: 27, country_code: code, country_name: country });
  const page = await suite.open(username, { context: size });
  await openVideoTab(page, WAIT.timeout);
  return page;
}

const status = rouletteStatus;

/** The partner's video shows frames and its time advances. */
const partnerVideoPlays = async (page: Page) => (await videoPlays(page, `video[aria-label="Partner's video"]`, WAIT.timeout)).width;

const partnerName = (page: Page) => rouletteSection(page).locator(".roulette-partner strong").textContent();
/** The partner is a stranger: their country (each user here has another one) tells who it is. */

/** Presses 'Start Video Chat' and waits until the page looks for someone. */
async function startSearching(page: Page): Promise<void> {
  await rouletteButton(page, "Start Video Chat").click();
  await rouletteSection(page).getByText("Looking for someone to chat with...").waitFor(WAIT);
}

/** `first` starts and waits, then `second` starts: both end connected (the video is the first test's). */
async function paired(first: Page, second: Page): Promise<void> {
  await startSearching(first);
  await rouletteButton(second, "Start Video Chat").click();
  for (const page of [first, second]) await waitForRouletteStatus(page, "connected");
}

/** Three browsers with cameras and two pairings: minutes on a loaded 2-core machine. */
const THREE_PEOPLE = 240_000;

describe("Video Roulette", () => {
  test("two users press 'Start Video Chat' and see each other's video", async () => {
    const dan = await openRoulette("dan");
    const erin = await openRoulette("erin");
    expect(await rouletteSection(dan).getByRole("status").first().textContent()).toBe('Click "Start" to begin video chat');
    await screenshot(dan, "roulette-disconnected");

    await startSearching(dan);
    expect(await rouletteButton(dan, "Stop").isVisible()).toBe(true);
    await screenshot(dan, "roulette-searching");

    await rouletteButton(erin, "Start Video Chat").click();
    expect(await partnerVideoPlays(dan)).toBeGreaterThan(0);
    expect(await partnerVideoPlays(erin)).toBeGreaterThan(0);
    await waitForRouletteStatus(dan, "connected");
    await waitForRouletteStatus(erin, "connected");
    expect(await partnerName(dan)).toBe("Stranger");
    expect(await partnerName(erin)).toBe("Stranger");
    expect(await partnerCountry(dan)).toContain("France");
    expect(await partnerCountry(erin)).toContain("Germany");
    expect(await rouletteButton(dan, "Next Partner").isVisible()).toBe(true);
    expect(await rouletteButton(dan, "Stop").isVisible()).toBe(true);
    await screenshot(dan, "roulette-connected");
  });

  test("'Next Partner' with a third user waiting pairs anew", async () => {
    const dan = await openRoulette("dan");
    const erin = await openRoulette("erin");
    await paired(dan, erin);
    const fay = await openRoulette("fay", MOBILE);
    await startSearching(fay);
    await screenshot(fay, "roulette-searching");

    await rouletteButton(dan, "Next Partner").click();
    await partnerVideoPlays(fay);
    await waitForRouletteStatus(dan, "connected");
    expect(await partnerCountry(dan)).toContain("Italy");
    expect(await partnerCountry(fay)).toContain("Germany");
    await partnerVideoPlays(dan);
    // Erin was left: she searches again, and nobody is free for her.
    await waitForRouletteStatus(erin, "searching");
    await screenshot(fay, "roulette-connected");
  }, THREE_PEOPLE);

  test("'Stop' returns to 'Start Video Chat' and releases the camera", async () => {
    const erin = await openRoulette("erin");
    await startSearching(erin);
    await erin.evaluate(() => {
      const video = document.querySelector<HTMLVideoElement>('video[aria-label="Your camera"]');
      Object.assign(window, { keptStream: video?.srcObject ?? null });
    });
    await rouletteButton(erin, "Stop").click();
    await rouletteButton(erin, "Start Video Chat").waitFor(WAIT);
    expect(await status(erin)).toBe("disconnected");
    expect(await rouletteSection(erin).getByText('Click "Start" to begin video chat').isVisible()).toBe(true);
    const tracks = await erin.evaluate(() =>
      ((window as { keptStream?: MediaStream | null }).keptStream?.getTracks() ?? []).map((t) => t.readyState),
    );
    expect(tracks).toEqual(["ended", "ended"]);
    expect(await erin.locator('video[aria-label="Your camera"]').count()).toBe(0);
  });

  test("closing one browser lets the other search again", async () => {
    const dan = await openRoulette("dan");
    const fay = await openRoulette("fay", MOBILE);
    await paired(fay, dan);
    await dan.context().close();
    await waitForRouletteStatus(fay, "searching");
    expect(await rouletteSection(fay).getByText("Looking for someone to chat with...").isVisible()).toBe(true);
    expect(await fay.locator(`video[aria-label="Partner's video"]`).evaluate((v: HTMLVideoElement) => v.srcObject)).toBeNull();
    // And pairs with the next person who starts.
    const erin = await openRoulette("erin");
    await rouletteButton(erin, "Start Video Chat").click();
    await partnerVideoPlays(fay);
    expect(await partnerCountry(fay)).toContain("France");
  }, THREE_PEOPLE);

  test("leaving the tab stops the camera and leaves the queue", async () => {
    const erin = await openRoulette("erin");
    const fay = await openRoulette("fay", MOBILE);
    await paired(erin, fay);
    await fay.evaluate(() => {
      const video = document.querySelector<HTMLVideoElement>('video[aria-label="Your camera"]');
      Object.assign(window, { keptStream: video?.srcObject ?? null });
    });
    await fay.locator('[data-tab="users"]').click();
    await rouletteSection(fay).waitFor({ state: "detached", ...WAIT });
    const tracks = await fay.evaluate(() =>
      ((window as { keptStream?: MediaStream | null }).keptStream?.getTracks() ?? []).map((t) => t.readyState),
    );
    expect(tracks).toEqual(["ended", "ended"]);
    // Erin's partner left: she searches again.
    await waitForRouletteStatus(erin, "searching");
  });
});
