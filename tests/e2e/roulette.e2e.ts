// Video Roulette in real Chromium with fake cameras, against the real server (ICE_SERVERS=[]):
// two users press 'Start Video Chat' and see each other, as strangers (name "Stranger", country
// only); 'Next Partner' with a third user waiting pairs anew; 'Stop' returns to 'Start Video Chat' and releases the camera; closing one browser
// lets the other search again. Screenshots of each state go to tests/e2e/screenshots/.
import { describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { registerAccount } from "./support/accounts.ts";
import { DESKTOP, MOBILE } from "./support/browser.ts";
import { openVideoTab, rouletteStatus, videoPlays, waitForRouletteStatus } from "./support/screens.ts";
import { screenshot } from "./support/screenshots.ts";
import { browserSuite } from "./support/suite.ts";

const WAIT = { timeout: 15_000 };

const suite = browserSuite({
  setup: async (server) => {
    const register = (username: string, name: string, gender: string, [code, country]: [string, string]) =>
      registerAccount(server, username, name, { gender, age: 27, country_code: code, country_name: country });
    await register("dan", "Dan", "male", ["DE", "Germany"]);
    await register("erin", "Erin", "female", ["FR", "France"]);
    await register("fay", "Fay", "female", ["IT", "Italy"]);
  },
  open: { camera: true, ...WAIT },
});

/** A signed-in page on the Video Chat tab, allowed to use the fake camera and microphone. */
async function openRoulette(username: string, size = DESKTOP): Promise<Page> {
  const page = await suite.open(username, { context: size });
  await openVideoTab(page, WAIT.timeout);
  return page;
}

const roulette = (page: Page) => page.locator("section.roulette");
const status = rouletteStatus;
const button = (page: Page, name: string) => roulette(page).getByRole("button", { name });
const waitForStatus = (page: Page, wanted: string) => waitForRouletteStatus(page, wanted, WAIT.timeout);

/** The partner's video shows frames and its time advances. */
const partnerVideoPlays = async (page: Page) => (await videoPlays(page, `video[aria-label="Partner's video"]`, WAIT.timeout)).width;

const partnerName = (page: Page) => roulette(page).locator(".roulette-partner strong").textContent();
/** The partner is a stranger: their country (each user here has another one) tells who it is. */
const partnerCountry = (page: Page) => roulette(page).locator(".roulette-partner span").textContent();

describe("Video Roulette", () => {
  let dan: Page;
  let erin: Page;
  let fay: Page;

  test("two users press 'Start Video Chat' and see each other's video", async () => {
    dan = await openRoulette("dan");
    erin = await openRoulette("erin");
    expect(await roulette(dan).getByRole("status").first().textContent()).toBe('Click "Start" to begin video chat');
    await screenshot(dan, "roulette-disconnected");

    await button(dan, "Start Video Chat").click();
    await roulette(dan).getByText("Looking for someone to chat with...").waitFor(WAIT);
    expect(await button(dan, "Stop").isVisible()).toBe(true);
    await screenshot(dan, "roulette-searching");

    await button(erin, "Start Video Chat").click();
    expect(await partnerVideoPlays(dan)).toBeGreaterThan(0);
    expect(await partnerVideoPlays(erin)).toBeGreaterThan(0);
    await waitForStatus(dan, "connected");
    await waitForStatus(erin, "connected");
    expect(await partnerName(dan)).toBe("Stranger");
    expect(await partnerName(erin)).toBe("Stranger");
    expect(await partnerCountry(dan)).toContain("France");
    expect(await partnerCountry(erin)).toContain("Germany");
    expect(await button(dan, "Next Partner").isVisible()).toBe(true);
    expect(await button(dan, "Stop").isVisible()).toBe(true);
    await screenshot(dan, "roulette-connected");
  });

  test("'Next Partner' with a third user waiting pairs anew", async () => {
    fay = await openRoulette("fay", MOBILE);
    await button(fay, "Start Video Chat").click();
    await roulette(fay).getByText("Looking for someone to chat with...").waitFor(WAIT);
    await screenshot(fay, "roulette-searching");

    await button(dan, "Next Partner").click();
    await partnerVideoPlays(fay);
    await waitForStatus(dan, "connected");
    expect(await partnerCountry(dan)).toContain("Italy");
    expect(await partnerCountry(fay)).toContain("Germany");
    await partnerVideoPlays(dan);
    // Erin was left: she searches again, and nobody is free for her.
    await waitForStatus(erin, "searching");
    await screenshot(fay, "roulette-connected");
  });

  test("'Stop' returns to 'Start Video Chat' and releases the camera", async () => {
    await erin.evaluate(() => {
      const video = document.querySelector<HTMLVideoElement>('video[aria-label="Your camera"]');
      Object.assign(window, { keptStream: video?.srcObject ?? null });
    });
    await button(erin, "Stop").click();
    await button(erin, "Start Video Chat").waitFor(WAIT);
    expect(await status(erin)).toBe("disconnected");
    expect(await roulette(erin).getByText('Click "Start" to begin video chat').isVisible()).toBe(true);
    const tracks = await erin.evaluate(() =>
      ((window as { keptStream?: MediaStream | null }).keptStream?.getTracks() ?? []).map((t) => t.readyState),
    );
    expect(tracks).toEqual(["ended", "ended"]);
    expect(await erin.locator('video[aria-label="Your camera"]').count()).toBe(0);
  });

  test("closing one browser lets the other search again", async () => {
    await dan.context().close();
    await waitForStatus(fay, "searching");
    expect(await roulette(fay).getByText("Looking for someone to chat with...").isVisible()).toBe(true);
    expect(await fay.locator(`video[aria-label="Partner's video"]`).evaluate((v: HTMLVideoElement) => v.srcObject)).toBeNull();
    // And pairs with the next person who starts.
    await button(erin, "Start Video Chat").click();
    await partnerVideoPlays(fay);
    expect(await partnerCountry(fay)).toContain("France");
  });

  test("leaving the tab stops the camera and leaves the queue", async () => {
    await fay.evaluate(() => {
      const video = document.querySelector<HTMLVideoElement>('video[aria-label="Your camera"]');
      Object.assign(window, { keptStream: video?.srcObject ?? null });
    });
    await fay.locator('[data-tab="users"]').click();
    await roulette(fay).waitFor({ state: "detached", ...WAIT });
    const tracks = await fay.evaluate(() =>
      ((window as { keptStream?: MediaStream | null }).keptStream?.getTracks() ?? []).map((t) => t.readyState),
    );
    expect(tracks).toEqual(["ended", "ended"]);
    // Erin's partner left: she searches again.
    await waitForStatus(erin, "searching");
  });
});
