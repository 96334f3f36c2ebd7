// Ways through the chat screen and Video Roulette that several browser suites take, each ending
// on the state it leads to (never on a sleep).
import type { Page } from "playwright-core";
import { translator, type T } from "../../../src/i18n/catalogue.ts";

const ROULETTE_WAIT = 20_000;

/** From the All Users tab: the person's profile, then Start Chat; ends once the chat is shown. `say`: the page's language. */
export async function startChat(page: Page, name: string, say: T = translator("en")): Promise<void> {
  await page.locator('[data-tab="users"]').click();
  await page.locator(".sidebar-panel").getByRole("button", { name: new RegExp(name) }).first().click();
  await page.getByRole("button", { name: say("chat.start_chat") }).click();
  await page.getByRole("region", { name: say("chat.chat_with", { name }) }).waitFor();
}

/** Writes `text` in the open chat with `name` and presses Enter. */
export async function sendMessage(page: Page, name: string, text: string): Promise<void> {
  const box = page.getByRole("textbox", { name: `Message ${name}` });
  await box.fill(text);
  await box.press("Enter");
}

/** Waits until the last own message's ticks read `status` (sent, delivered, read). */
export async function waitForTick(page: Page, status: string, timeout = 10_000): Promise<void> {
  await page.waitForFunction((s) => [...document.querySelectorAll(".message-row.is-own .ticks")].at(-1)?.getAttribute("data-status") === s, status, { timeout });
}

/** From the Chats tab: the conversation's row; ends once its region is shown. */
export async function openConversation(page: Page, name: string): Promise<void> {
  await page.locator('[data-tab="chats"]').click();
  await page.locator(".sidebar-panel .row", { hasText: name }).click();
  await page.getByRole("region", { name: `Chat with ${name}` }).waitFor();
}

/** Settings, then the section whose menu button matches. */
export async function openSettings(page: Page, section: RegExp): Promise<void> {
  await page.locator('[data-tab="settings"]').click();
  await page.locator(".settings-menu").getByRole("button", { name: section }).click();
}

/** The roulette section's status (data-status): idle, searching, connected, disconnected... */
/** Video Roulette's section of the page. */
export const rouletteSection = (page: Page) => page.locator("section.roulette");

/** A button of Video Roulette by its accessible name (`exact`: the whole name). */
export const rouletteButton = (page: Page, name: string, exact = false) => rouletteSection(page).getByRole("button", { name, exact });

/** The country on the stranger's line in Video Roulette. */
export const partnerCountry = (page: Page) => rouletteSection(page).locator(".roulette-partner span").textContent();

/** The call screen, a dialog named after the other person. */
export const callOverlay = (page: Page) => page.getByRole("dialog", { name: /^Video call with / });

export const rouletteStatus = (page: Page) => rouletteSection(page).getAttribute("data-status");

/** Waits until the roulette section's status is `wanted`. */
export async function waitForRouletteStatus(page: Page, wanted: string, timeout = ROULETTE_WAIT): Promise<void> {
  await page.waitForFunction((s) => document.querySelector("section.roulette")?.getAttribute("data-status") === s, wanted, { timeout });
}

/** Waits until every CSS animation and transition in `selector` (and below) has finished. */
export async function animationsDone(page: Page, selector: string): Promise<void> {
  await page.locator(selector).first().waitFor();
  await page.evaluate(async (s) => {
    const roots = [...document.querySelectorAll(s)];
    await Promise.all(roots.flatMap((el) => el.getAnimations({ subtree: true }).map((a) => a.finished.catch(() => undefined))));
  }, selector);
}

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The boxes of the visible elements `selector` matches, in the viewport's coordinates. */
export const boxesOf = (page: Page, selector: string): Promise<(Box & { name: string })[]> =>
  page.$$eval(selector, (els) =>
    els
      .map((el) => ({ el, r: el.getBoundingClientRect() }))
      .filter(({ r }) => r.width > 0 && r.height > 0)
      .map(({ el, r }) => ({ name: el.getAttribute("aria-label") ?? el.textContent?.trim() ?? el.tagName, x: r.x, y: r.y, width: r.width, height: r.height })),
  );

/** Whether `inner` lies within `outer` (half a pixel of rounding allowed). */
export const inside = (inner: Box, outer: Box) =>
  inner.x >= outer.x - 0.5 && inner.y >= outer.y - 0.5 && inner.x + inner.width <= outer.x + outer.width + 0.5 && inner.y + inner.height <= outer.y + outer.height + 0.5;

/** Whether two boxes share any area. */
export const overlap = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/**
 * Resolves once the page has run its pending tasks and drawn twice: what it was handed before
 * (a response, a socket frame) has been handled and rendered by then.
 */
export const pageSettled = (page: Page) =>
  page.evaluate(() => new Promise<void>((resolve) => setTimeout(() => requestAnimationFrame(() => requestAnimationFrame(() => resolve())), 0)));

/** Waits on the page's own clock: its timers due before this one have run when it resolves. */
export const pageTimersPast = (page: Page, ms: number) => page.evaluate((t) => new Promise<void>((resolve) => setTimeout(resolve, t)), ms);

/** The Video Chat tab, once its roulette section is there. */
export async function openVideoTab(page: Page, timeout = ROULETTE_WAIT): Promise<void> {
  await page.locator('[data-tab="video"]').click();
  await page.locator("section.roulette").waitFor({ timeout });
}

/** The remote video `selector` shows frames and its time advances; returns its size and state. */
export async function videoPlays(page: Page, selector: string, timeout = ROULETTE_WAIT) {
  await page.waitForFunction((s) => (document.querySelector<HTMLVideoElement>(s)?.videoWidth ?? 0) > 0, selector, { timeout });
  const before = await page.$eval(selector, (v: HTMLVideoElement) => v.currentTime);
  await page.waitForFunction(([s, t]) => (document.querySelector<HTMLVideoElement>(s as string)?.currentTime ?? 0) > (t as number) + 0.3, [selector, before] as const, { timeout });
  return page.$eval(selector, (v: HTMLVideoElement) => ({ width: v.videoWidth, height: v.videoHeight, paused: v.paused }));
}

/** Waits until every image on the page has loaded (or failed), for a screenshot worth looking at. */
export const imagesLoaded = (page: Page) => page.waitForFunction(() => [...document.images].every((img) => img.complete));
