// Accessibility in real Chromium: axe-core (WCAG 2.0, 2.1 and 2.2 A and AA rules) on every screen
// a visitor or a signed-in user meets, at desktop and 375 px width where the layout differs. A
// "serious" or "critical" violation fails the test and is printed with its rule, target and summary.
// Also: the message log, a tab stop, shows a focus outline that can be seen. Screens: the landing
// page, the chat screen, settings, Video Chat idle, searching and connected to a stranger, calls,
// the report dialog, the blocked list, the moderation console, and what moderation shows a user
// (warning, ban page).
import { describe, expect, test } from "bun:test";
import type { BrowserContextOptions, Page } from "playwright-core";
import { type Account, apiAs, registerAccount } from "./support/accounts.ts";
import { expectAccessible } from "./support/axe.ts";
import { DESKTOP, MOBILE } from "./support/browser.ts";
import { moderate } from "./support/moderate.ts";
import { openSettings, sendMessage, startChat, waitForRouletteStatus } from "./support/screens.ts";
import { screenshot } from "./support/screenshots.ts";
import { browserSuite } from "./support/suite.ts";

const WAIT = { timeout: 15_000 };

const accounts = new Map<string, Account>();
const suite = browserSuite({
  isolated: true,
  setup: async (server) => {
    for (const [username, name] of [["ada", "Ada"], ["ben", "Ben"], ["cleo", "Cleo"], ["mona", "Mona"], ["ivy", "Ivy"], ["hank", "Hank"]] as const) {
      accounts.set(username, await registerAccount(server, username, name));
    }
    accounts.set("dora", await registerAccount(server, "dora", "Dora", { gender: "female", country_code: "FR", country_name: "France" }));
    accounts.set("eli", await registerAccount(server, "eli", "Eli", { gender: "male", country_code: "DE", country_name: "Germany" }));
    await moderate(suite.server, "grant", "mona", "moderator");
  },
  open: { dismissDialogs: true, defaultTimeout: WAIT.timeout, listLoaded: true, ...WAIT },
});

async function openLanding(size: BrowserContextOptions): Promise<Page> {
  const page = await (await suite.newContext(size)).newPage();
  await page.goto("/");
  return page;
}

/** Sends `text` in the open chat with `name`; ends once it shows among the page's own messages. */
async function send(page: Page, name: string, text: string) {
  await sendMessage(page, name, text);
  await page.locator(".message-row.is-own .message-text", { hasText: text }).waitFor();
}


/** WCAG relative luminance contrast of two CSS rgb()/rgba() colours (alpha ignored: both opaque here). */
function contrast(a: string, b: string): number {
  const luminance = (css: string) => {
    const [r = 0, g = 0, bl = 0] = (css.match(/[\d.]+/g) ?? []).map(Number);
    const channel = (c: number) => (c / 255 <= 0.04045 ? c / 255 / 12.92 : ((c / 255 + 0.055) / 1.055) ** 2.4);
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(bl);
  };
  const [high, low] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (high + 0.05) / (low + 0.05);
}

for (const [label, size] of [["desktop", DESKTOP], ["mobile", MOBILE]] as const) {
  describe(`the landing page (${label})`, () => {
    test("the log-in tab and the cookie banner have no serious violations", async () => {
      const page = await openLanding(size);
      await page.getByRole("button", { name: "Reject non-essential" }).waitFor();
      await expectAccessible(page, `landing log-in with cookie banner (${label})`);
      await screenshot(page, "a11y-landing");
    });

    for (const tab of ["login", "register", "guest"]) {
      test(`the ${tab} tab has no serious violations`, async () => {
        const page = await openLanding(size);
        await page.getByRole("button", { name: "Reject non-essential" }).click();
        await page.click(`label[for=tab-${tab}]`);
        await page.locator(`.panel-${tab}`).waitFor();
        await expectAccessible(page, `landing ${tab} tab (${label})`);
      });
    }
  });
}

describe("the chat screen", () => {
  // Each test makes its own Ada and Ben, numbered so that lists holding everybody tell them apart.
  let made = 0;

  /** Ben writes to Ada, Ada opens their chat and answers: both sides have messages. */
  async function conversation(): Promise<{ ada: Page; ben: Page; adaUser: string; benUser: string; adaName: string; benName: string }> {
    const n = ++made;
    const [adaName, benName] = [`Ada ${n}`, `Ben ${n}`];
    const adaUser = await suite.account("adaconv", adaName);
    const benUser = await suite.account("benconv", benName);
    const ben = await suite.open(benUser);
    await startChat(ben, adaName);
    await send(ben, adaName, `Hello ${adaName}, how are you?`);
    const ada = await suite.open(adaUser);
    await ada.locator('[data-tab="chats"]').click();
    await ada.locator(".sidebar-panel .row", { hasText: benName }).click();
    await ada.getByRole("region", { name: `Chat with ${benName}` }).waitFor();
    await send(ada, benName, "Fine, thanks!");
    await ben.locator(".message-row:not(.is-own) .message-text", { hasText: "Fine, thanks!" }).waitFor();
    return { ada, ben, adaUser, benUser, adaName, benName };
  }

  test("an open conversation with messages from both sides has no serious violations", async () => {
    const { ada } = await conversation();
    await expectAccessible(ada, "chat with Ben, Chats tab");
    await screenshot(ada, "a11y-chat");
    await ada.locator('[data-tab="users"]').click();
    await ada.locator(".sidebar-panel .row").first().waitFor();
    await expectAccessible(ada, "chat with Ben, All Users tab");
    await screenshot(ada, "a11y-users");
  });

  test("the brand, the online counter, the tabs and the chat header are named by the text they show", async () => {
    const { ada, benName } = await conversation();
    // The All Users tab, the chat with Ben still open beside it.
    await ada.locator('[data-tab="users"]').click();
    await ada.locator(".sidebar-panel .row").first().waitFor();
    expect(await ada.locator("span[aria-label]:not([role]), div[aria-label]:not([role])").count()).toBe(0);
    expect(await ada.locator(".sidebar-header").getByText("Web Chat", { exact: true }).isVisible()).toBe(true);
    expect(await ada.getByRole("heading", { name: /^All Users \d+ online$/ }).isVisible()).toBe(true);
    expect(await ada.getByRole("tab", { name: /^All Users \d+ online$/ }).isVisible()).toBe(true);
    expect(await ada.getByRole("button", { name: new RegExp(`^${benName} (Online|Offline) \\(view profile\\)$`) }).isVisible()).toBe(true);
  });

  test("the emoji picker has no serious violations", async () => {
    const { ada } = await conversation();
    await ada.getByRole("button", { name: "Emoji" }).click();
    await ada.getByRole("dialog", { name: "Emoji picker" }).locator("input").first().waitFor();
    await expectAccessible(ada, "emoji picker");
    await screenshot(ada, "a11y-emoji-picker");
    await ada.getByRole("button", { name: "Emoji" }).click();
    await ada.getByRole("dialog", { name: "Emoji picker" }).waitFor({ state: "hidden" });
  });

  test("Tab reaches the message log and shows a focus outline that can be seen", async () => {
    const { ada, benName } = await conversation();
    await ada.locator('[data-tab="chats"]').click();
    await ada.locator(".sidebar-panel .row", { hasText: benName }).focus();
    const log = ada.getByRole("log");
    let reached = false;
    for (let presses = 0; presses < 30 && !reached; presses++) {
      await ada.keyboard.press("Tab");
      reached = await log.evaluate((el) => el === document.activeElement);
    }
    expect(reached).toBe(true);
    const focus = await log.evaluate((el) => {
      const style = getComputedStyle(el);
      return { style: style.outlineStyle, width: parseFloat(style.outlineWidth), color: style.outlineColor, matches: el.matches(":focus-visible") };
    });
    expect(focus.matches).toBe(true);
    expect(focus.style).not.toBe("none");
    expect(focus.width).toBeGreaterThanOrEqual(2);
    // The outline sits on the log's own light background (#fbfaff to #f6f4fb) and on white around it.
    expect(contrast(focus.color, "rgb(246, 244, 251)")).toBeGreaterThanOrEqual(3);
    expect(contrast(focus.color, "rgb(255, 255, 255)")).toBeGreaterThanOrEqual(3);
    await screenshot(ada, "a11y-message-log-focus");
  });

  test("the report dialog has no serious violations", async () => {
    const { ada, benName } = await conversation();
    await ada.getByRole("button", { name: `More options for ${benName}` }).click();
    await ada.getByRole("menuitem", { name: /^Report/ }).click();
    const dialog = ada.getByRole("dialog", { name: `Report ${benName}` });
    await dialog.waitFor();
    await expectAccessible(ada, "report dialog");
    await screenshot(ada, "a11y-report-dialog");
    await ada.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });
  });

  test("the chat screen at 375 px has no serious violations", async () => {
    const { benUser, adaName } = await conversation();
    const phone = await suite.open(benUser, { context: MOBILE });
    await expectAccessible(phone, "All Users tab (mobile)");
    await phone.locator('[data-tab="chats"]').click();
    await phone.locator(".sidebar-panel .row", { hasText: adaName }).click();
    await phone.getByRole("region", { name: `Chat with ${adaName}` }).waitFor();
    await expectAccessible(phone, "chat with Ada (mobile)");
    await screenshot(phone, "a11y-chat");
  });
});

describe("settings", () => {
  let ada: Page;

  test("each section has no serious violations", async () => {
    const response = await apiAs(suite.server, accounts.get("ada")!.token, "/api/blocks", { method: "POST", body: JSON.stringify({ userId: accounts.get("cleo")?.user.id }) });
    expect(response.status).toBe(201);
    ada = await suite.open("ada");
    await ada.locator('[data-tab="settings"]').click();
    await ada.locator(".settings-menu").waitFor();
    await expectAccessible(ada, "settings menu");
    for (const section of [/^Profile Settings/, /^Blocked people/, /^Privacy/, /^Safety/, /^Notifications/]) {
      await openSettings(ada, section);
      await ada.locator(".settings-main").waitFor();
      await expectAccessible(ada, `settings ${section.source}`);
    }
    await openSettings(ada, /^Blocked people/);
    await ada.getByText("Cleo").first().waitFor();
    await expectAccessible(ada, "blocked people with one person");
    await screenshot(ada, "a11y-settings-blocked");
  });
});

describe("video", () => {
  test("the Video Chat tab idle and searching has no serious violations", async () => {
    const page = await suite.open("cleo", { context: DESKTOP, camera: true });
    await page.locator('[data-tab="video"]').click();
    const roulette = page.locator("section.roulette");
    await roulette.waitFor();
    await expectAccessible(page, "Video Chat idle");
    await screenshot(page, "a11y-roulette-idle");
    await roulette.getByRole("button", { name: "Start Video Chat" }).click();
    await roulette.getByText("Looking for someone to chat with...").waitFor();
    await expectAccessible(page, "Video Chat searching");
    await screenshot(page, "a11y-roulette-searching");
    await roulette.getByRole("button", { name: "Stop" }).click();
    await roulette.getByRole("button", { name: "Start Video Chat" }).waitFor();
  });

  test("the call screens have no serious violations", async () => {
    const ada = await suite.open("ada", { context: DESKTOP, camera: true });
    const ben = await suite.open("ben", { context: DESKTOP, camera: true });
    await startChat(ada, "Ben");
    await ada.getByRole("button", { name: "Video call Ben" }).click();
    const overlay = (page: Page) => page.getByRole("dialog", { name: /^Video call with / });
    await overlay(ada).getByText("Waiting for answer").waitFor();
    await overlay(ben).getByRole("button", { name: "Accept" }).waitFor();
    await expectAccessible(ada, "outgoing call");
    await expectAccessible(ben, "incoming call");
    await overlay(ben).getByRole("button", { name: "Accept" }).click();
    await ada.locator('video[aria-label="Ben\'s video"]').waitFor();
    await expectAccessible(ada, "connected call");
    await screenshot(ada, "a11y-call-connected");
    await overlay(ada).getByRole("button", { name: "End call" }).click();
    await overlay(ben).waitFor({ state: "detached" });
  });
});

describe("at 375 px", () => {
  test("settings and the Video Chat tab have no serious violations", async () => {
    const page = await suite.open("ben", { context: MOBILE, camera: true });
    await page.locator('[data-tab="settings"]').click();
    await page.locator(".settings-menu").waitFor();
    await expectAccessible(page, "settings menu at 375 px");
    for (const section of [/^Profile Settings/, /^Blocked people/, /^Privacy/, /^Safety/, /^Notifications/]) {
      await openSettings(page, section);
      await page.locator(".settings-main").waitFor();
      await expectAccessible(page, `settings ${section.source} at 375 px`);
      // On a phone the section takes the screen; its back button returns to the menu and the tabs.
      const back = page.getByRole("button", { name: /^Back/ }).first();
      if (await back.isVisible()) await back.click();
    }
    await page.locator('[data-tab="video"]').click();
    await page.locator("section.roulette").waitFor();
    await expectAccessible(page, "Video Chat idle at 375 px");
    await screenshot(page, "a11y-roulette-idle-375");
  });
});

describe("Video Roulette with a stranger", () => {
  test("connected to a partner (video still blurred while it is checked) has no serious violations", async () => {
    const dora = await suite.open("dora", { context: DESKTOP, camera: true });
    const eli = await suite.open("eli", { context: DESKTOP, camera: true });
    for (const page of [dora, eli]) {
      await page.locator('[data-tab="video"]').click();
      await page.locator("section.roulette").getByRole("button", { name: "Start Video Chat" }).click();
    }
    await waitForRouletteStatus(dora, "connected");
    await waitForRouletteStatus(eli, "connected");
    await expectAccessible(dora, "Video Roulette connected");
    await screenshot(dora, "a11y-roulette-connected");
    await dora.locator("section.roulette").getByRole("button", { name: "Stop" }).click();
    // Two cameras, a pairing and axe over a page with two videos: minutes on a loaded machine.
  }, 240_000);
});

describe("moderation as the user meets it", () => {
  test("the moderation console (queue, a user's page) and the warning it sends have no serious violations", async () => {
    const ivy = await suite.open("ivy");
    const mona = await suite.open("mona", { listLoaded: false });
    await mona.goto("/mod");
    await expectAccessible(mona, "the moderation console's queue");
    await mona.goto("/mod/users?q=ivy");
    await mona.locator("main").getByRole("link", { name: "ivy", exact: true }).first().click();
    await expectAccessible(mona, "the moderation console's user page");
    const actions = mona.locator("form.mod-actions");
    await actions.locator('textarea[name="warn_reason"]').fill("Please keep it friendly: insults break our Terms.");
    await actions.getByRole("button", { name: "Warn ivy" }).click();
    await ivy.getByRole("alertdialog", { name: "A moderator has warned you" }).waitFor(WAIT);
    await expectAccessible(ivy, "the warning dialog");
    await screenshot(ivy, "a11y-warning");
  });

  test("the ban page has no serious violations", async () => {
    const hank = await suite.open("hank");
    await moderate(suite.server, "ban", "hank", "7", "Spam in every chat.");
    await hank.locator(".ban-page h1").waitFor(WAIT);
    await expectAccessible(hank, "the ban page");
    await screenshot(hank, "a11y-ban-page");
  });
});
