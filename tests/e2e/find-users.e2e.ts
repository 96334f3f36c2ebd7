// All Users and Find Users in real Chromium against the real server, with more people than one
// page: the list loads the next page as it scrolls, the search runs on the server (it finds people
// no page has shown yet), a slow answer to an older query never replaces a newer one, and presence
// still moves people in the results. Screenshots go to tests/e2e/screenshots/.
import { describe, expect, test } from "bun:test";
import type { BrowserContextOptions, Page, Route } from "playwright-core";
import { PEOPLE_PAGE_SIZE } from "../../islands/lib/user-search.ts";
import type { RunningServer } from "./support/server.ts";
import { registerAccount } from "./support/accounts.ts";
import { MOBILE } from "./support/browser.ts";
import { pageSettled } from "./support/screens.ts";
import { screenshot } from "./support/screenshots.ts";
import { browserSuite } from "./support/suite.ts";

/** Registered first, so last seen longest ago: they sort after everyone else, beyond the first page. */
const zaras = ["Zara Ito", "Zara Sato", "Zara Mori", "Zara Abe", "Zara Kato"];
const zarbs = ["Zarb One", "Zarb Two"];
const FILLERS = 70;
const everyone = zaras.length + zarbs.length + FILLERS;

const rows = (page: Page) => page.locator(".sidebar-panel .list:not(.skeleton-list) .row");
const rowNames = (page: Page) => page.locator(".sidebar-panel .list:not(.skeleton-list) .row .row-name").allTextContents();

async function registerAll(server: RunningServer, people: [string, string, Record<string, unknown>][]) {
  for (let i = 0; i < people.length; i += 6) {
    await Promise.all(people.slice(i, i + 6).map(([username, name, profile]) => registerAccount(server, username, name, profile)));
  }
}

const suite = browserSuite({
  env: { SIGNUP_RATE_LIMIT: "1000" },
  setup: async (server) => {
    await registerAll(server, zaras.map((name, i) => [`zara_${i}`, name, { country_code: "JP", gender: i % 2 ? "male" : "female", age: 20 + i * 10 }]));
    await registerAll(server, zarbs.map((name, i) => [`zarb_${i}`, name, {}]));
    await registerAll(server, Array.from({ length: FILLERS }, (_, i) => [`filler_${i}`, `Filler ${String(i).padStart(2, "0")}`, { age: 25 + (i % 30) }]));
    await registerAccount(server, "finder", "Finder");
  },
  open: { logConsoleErrors: true, listLoaded: true },
});

describe("All Users with more people than one page", () => {
  test("shows the first page, then loads the next one as the list scrolls, each person once", async () => {
    const page = await suite.open("finder");
    await rows(page).nth(PEOPLE_PAGE_SIZE - 1).waitFor();
    expect(await rows(page).count()).toBe(PEOPLE_PAGE_SIZE);
    await page.getByRole("button", { name: "Show more people" }).waitFor();
    await screenshot(page, "find-users-first-page");
    await page.locator(".sidebar-panel .list-scroll").evaluate((el) => el.scrollTo(0, el.scrollHeight));
    await rows(page).nth(everyone - 1).waitFor({ timeout: 10_000 });
    const names = await rowNames(page);
    expect(names).toHaveLength(everyone);
    expect(new Set(names).size).toBe(everyone);
    expect(await page.getByRole("button", { name: "Show more people" }).count()).toBe(0);
    await screenshot(page, "find-users-scrolled");
  });

  test("Find Users searches on the server: it finds people no loaded page has shown", async () => {
    const page = await suite.open("finder");
    await rows(page).nth(PEOPLE_PAGE_SIZE - 1).waitFor();
    expect(await page.getByText("Zara Ito").count()).toBe(0);
    await page.getByRole("button", { name: "Find Users" }).click();
    await page.getByLabel("Name").fill("zara");
    await page.getByText(`0 of ${zaras.length} found`).waitFor();
    expect((await rowNames(page)).sort()).toEqual([...zaras].sort());
    await page.getByLabel("Min age").selectOption("40");
    await page.getByText("0 of 3 found").waitFor();
    await page.getByLabel("Country").selectOption("Japan");
    await page.getByLabel("Gender").selectOption("male");
    await page.getByText("0 of 1 found").waitFor();
    expect(await rowNames(page)).toEqual(["Zara Abe"]);
    await screenshot(page, "find-users-filtered");
    await page.getByRole("button", { name: "Clear results" }).click();
    await rows(page).nth(PEOPLE_PAGE_SIZE - 1).waitFor();
    expect(await page.getByText("Zara Abe").count()).toBe(0);
  });

  test("a slow answer to what was typed before never replaces the answer to what was typed last", async () => {
    const page = await suite.open("finder");
    await rows(page).nth(PEOPLE_PAGE_SIZE - 1).waitFor();
    let released = false;
    // "zar" (Zaras and Zarbs) answers after "zara" (Zaras only).
    await page.route(/\/api\/users\?.*q=zar(&|$)/, async (route: Route) => {
      await new Promise((r) => setTimeout(r, 1500));
      released = true;
      await route.continue();
    });
    // Listened for before typing: on a loaded machine "zara" may answer after the held "zar" does.
    const asked = page.waitForRequest(/q=zar(&|$)/);
    const answered = page.waitForResponse(/q=zar(&|$)/, { timeout: 60_000 });
    await page.getByRole("button", { name: "Find Users" }).click();
    const name = page.getByLabel("Name");
    await name.fill("zar");
    await asked;
    await name.fill("zara");
    await page.getByText(`0 of ${zaras.length} found`).waitFor();
    const late = await answered;
    expect(released).toBe(true);
    // The late answer has been read and drawn: had it been taken, its Zarbs would show now.
    await late.finished();
    await pageSettled(page);
    expect(await page.getByText(`0 of ${zaras.length} found`).count()).toBe(1);
    expect((await rowNames(page)).sort()).toEqual([...zaras].sort());
  });

  test("someone in the results coming online moves up and is counted", async () => {
    const page = await suite.open("finder");
    await page.getByRole("button", { name: "Find Users" }).click();
    await page.getByLabel("Name").fill("zara");
    await page.getByText(`0 of ${zaras.length} found`).waitFor();
    const counter = page.locator(".online-counter");
    const before = Number.parseInt((await counter.textContent()) ?? "", 10);
    await suite.open("zara_2");
    await page.getByText(`1 of ${zaras.length} found`).waitFor({ timeout: 10_000 });
    expect((await rowNames(page))[0]).toBe("Zara Mori");
    await page.waitForFunction((n) => document.querySelector(".online-counter")?.textContent?.startsWith(`${n} `), before + 1, { timeout: 10_000 });
  });

  test("at 375 px the list pages and searches the same way", async () => {
    const page = await suite.open("finder", { context: MOBILE });
    await rows(page).nth(PEOPLE_PAGE_SIZE - 1).waitFor();
    await page.locator(".sidebar-panel .list-scroll").evaluate((el) => el.scrollTo(0, el.scrollHeight));
    await rows(page).nth(everyone - 1).waitFor({ timeout: 10_000 });
    await page.getByRole("button", { name: "Find Users" }).click();
    await page.getByLabel("Name").fill("zarb");
    await page.getByText(`0 of ${zarbs.length} found`).waitFor();
    // The results start at the top, not where the long list was scrolled to.
    expect(await page.locator(".sidebar-panel .list-scroll").evaluate((el) => el.scrollTop)).toBe(0);
    await screenshot(page, "find-users-filtered");
  });
});
